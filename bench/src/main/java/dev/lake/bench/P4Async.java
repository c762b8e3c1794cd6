package dev.lake.bench;

import dev.lake.bench.ClientSpec.Group;
import dev.lake.bench.ClientSpec.Kind;
import dev.lake.bench.ClientSpec.Outcome;
import dev.lake.bench.ClientSpec.Samples;
import dev.lake.bench.ClientSpec.Side;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/**
 * P4: durable queries. (1) overhead: PollFlightInfo submit → SUCCEEDED for TPC-H Q1 against the
 * same statement run interactively (GetFlightInfo + DoGet), interleaved — the difference is what
 * the job machinery adds on top of execution. (2) download: all result parts of {@code SELECT *
 * FROM lake.tpch.lineitem} fetched with 4 parallel DoGets against 1 (MB/s; the ratio is the
 * speedup).
 */
final class P4Async implements Metric {
  static final String BIG = "SELECT * FROM lake.tpch.lineitem";

  @Override
  public String id() {
    return "P4";
  }

  @Override
  public String title() {
    return "durable query: PollFlightInfo submit → SUCCEEDED minus execution (Q1),"
        + " then result-part download with 4 vs 1 parallel DoGets (lineitem)";
  }

  @Override
  public List<Result> run(BenchContext context) throws Exception {
    Optional<LakeStack> lake = context.lake();
    Optional<String> missing =
        lake.isEmpty() ? Optional.of(context.lakeMissing()) : lake.get().durableMissing();
    if (missing.isPresent()) {
      return List.of(
          Result.notAvailable(
              id(), "submit-overhead", null, "ms", "interactive run", missing.get()),
          Result.notAvailable(id(), "parallel-download", null, "MB/s", "1 DoGet", missing.get()));
    }
    LakeStack l = lake.get();
    String q1 = TpchQueries.forCatalog("lake").get("Q1");
    BenchConfig config = context.config();
    Outcome outcome =
        context
            .clients()
            .run(
                new ClientSpec(
                    config.warmups(),
                    config.iterations(),
                    l.token(),
                    List.of(
                        new Group(
                            "overhead",
                            1,
                            List.of(
                                Side.of("durable", Kind.POLL, l.uri(), q1),
                                Side.of("interactive", Kind.FLIGHT_SQL, l.uri(), q1))),
                        new Group(
                            "download",
                            1,
                            List.of(
                                new Side("p4", Kind.POLL, l.uri(), BIG, Map.of("parallel", "4")),
                                new Side(
                                    "p1", Kind.POLL, l.uri(), BIG, Map.of("parallel", "1")))))));
    Samples durable = outcome.get("overhead", "durable");
    Samples interactive = outcome.get("overhead", "interactive");
    Stats done = Stats.of(durable.extra().stream().mapToDouble(n -> n / 1e6).toArray());
    Stats exec = interactive.millis();
    Stats p4 = downloadRate(outcome.get("download", "p4"));
    Stats p1 = downloadRate(outcome.get("download", "p1"));
    return List.of(
        Result.measured(
            id(),
            "submit-overhead",
            done,
            exec,
            "ms",
            "the same Q1 run interactively (GetFlightInfo + DoGet)",
            false,
            String.format(
                Locale.ROOT,
                "overhead = %.1f ms (p50 difference); target ≤ 50 ms",
                done.median() - exec.median())),
        Result.measured(
            id(),
            "parallel-download",
            p4,
            p1,
            "MB/s",
            "the same parts fetched with 1 DoGet at a time",
            true,
            "ratio = speedup of 4 parallel DoGets; target ≥ 1.8×"));
  }

  /** MB/s of the part downloads alone (run wall time minus submit → done). */
  private static Stats downloadRate(Samples s) {
    double[] v = new double[s.nanos().size()];
    for (int i = 0; i < v.length; i++) {
      v[i] = s.bytes().get(i) / 1e6 / ((s.nanos().get(i) - s.extra().get(i)) / 1e9);
    }
    return Stats.of(v);
  }
}
