package dev.lake.bench;

import dev.lake.bench.ClientSpec.Group;
import dev.lake.bench.ClientSpec.Kind;
import dev.lake.bench.ClientSpec.Outcome;
import dev.lake.bench.ClientSpec.Samples;
import dev.lake.bench.ClientSpec.Side;
import dev.lake.core.CacheStats;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * P2: streaming all of lineitem through DoGet, in MB/s of Arrow data received, against the raw
 * Flight server streaming the same rows from memory in 65,536-row batches (the engine's default
 * batch size) — the transport limit of this machine.
 */
final class P2Streaming implements Metric {
  static final String SQL = "SELECT * FROM lake.tpch.lineitem";
  static final int BATCH_ROWS = 65_536;

  @Override
  public String id() {
    return "P2";
  }

  @Override
  public String title() {
    return "stream all of lineitem through DoGet (MB/s of Arrow) vs raw Flight from memory";
  }

  @Override
  public List<Result> run(BenchContext context) throws Exception {
    BenchConfig config = context.config();
    RawFlightServer raw = context.raw();
    RawFlightServer.Dataset data =
        ArrowData.fromParquet(
            context.allocator(), context.parquet().resolve("lineitem.parquet"), BATCH_ROWS);
    long rawBytes = ArrowData.bytes(data);
    raw.put("lineitem", data);
    Outcome outcome;
    Optional<LakeStack> lake = context.lake();
    String primed = "";
    if (lake.isPresent() && lake.get().cacheStats().isPresent() && config.warmups() > 0) {
      // P2 measures what a server with a hot table streams: the engine copies a snapshot in the
      // background after its second uncached read, and a time-capped warm-up of a few rounds
      // (quick runs: about 6 on a quiet machine, 1 at load 10) otherwise let timed runs read
      // lineitem uncached (Lance into DuckDB, several times the CPU) in loaded runs
      LakeStack l = lake.get();
      primed =
          CachePrimer.prime(
              context,
              l,
              List.of(
                  new Group(
                      "p2-prime", 1, List.of(Side.of("lake", Kind.FLIGHT_SQL, l.uri(), SQL)))),
              COPY_WAIT);
    }
    Optional<CacheStats> cacheBefore = lake.flatMap(LakeStack::cacheStats);
    try {
      List<Side> sides = new ArrayList<>();
      lake.ifPresent(l -> sides.add(Side.of("lake", Kind.FLIGHT_SQL, l.uri(), SQL)));
      sides.add(Side.of("raw", Kind.FLIGHT, raw.uri(), "lineitem"));
      outcome =
          context
              .clients()
              .run(
                  config.spec(
                      lake.map(LakeStack::token).orElse("none"),
                      List.of(new Group("p2", 1, sides))));
    } finally {
      raw.remove("lineitem");
    }
    Samples r = outcome.get("p2", "raw");
    String label =
        String.format(
            Locale.ROOT,
            "raw Arrow Flight DoGet of the same rows from memory (%.0f MB)",
            rawBytes / 1e6);
    if (lake.isEmpty()) {
      return List.of(
          Result.notAvailable(
              id(), "lineitem", r.megabytesPerSecond(), "MB/s", label, context.lakeMissing()));
    }
    Samples l = outcome.get("p2", "lake");
    String cache =
        copyNote(
            cacheBefore,
            lake.flatMap(LakeStack::cacheStats),
            outcome.warmups().containsKey("p2") ? outcome.warmups().get("p2").rounds() : 0,
            l.nanos().size());
    String note =
        String.format(
            Locale.ROOT,
            "target ≥ 0.9× raw; lake %d rows / %.0f MB in %.0f ms p50, raw %d rows in %.0f ms;"
                + " %d runs; %s%s%s",
            l.rows().get(0),
            l.bytes().get(0) / 1e6,
            l.millis().median(),
            r.rows().get(0),
            r.millis().median(),
            l.nanos().size(),
            outcome.warmupNote("p2"),
            primed,
            cache);
    return List.of(
        Result.measured(
            id(),
            "lineitem",
            l.megabytesPerSecond(),
            r.megabytesPerSecond(),
            "MB/s",
            label,
            true,
            note));
  }

  /** Longest wait for the background copy of lineitem to finish. */
  static final Duration COPY_WAIT = Duration.ofSeconds(20);

  /**
   * Whether lake's timed runs read lineitem from the engine's snapshot-cache copy (a native DuckDB
   * table, made in the background after the table's second read) or uncached (Lance into DuckDB),
   * which costs several times more: each warm-up round and each timed run reads lineitem once, and
   * a copy, once made, serves every later read (nothing else runs during P2), so the last {@code
   * hits} reads came from the copy, and the timed runs did if {@code hits >= timedRuns}.
   */
  static String copyNote(
      Optional<CacheStats> before, Optional<CacheStats> after, int warmupRounds, int timedRuns) {
    if (before.isEmpty() || after.isEmpty()) {
      return "";
    }
    long hits = after.get().snapshotHits() - before.get().snapshotHits();
    long copies = after.get().snapshotCopies() - before.get().snapshotCopies();
    String timed =
        hits >= timedRuns
            ? "every timed run read the copy"
            : String.format(
                Locale.ROOT,
                "%d of %d timed runs read lineitem uncached",
                timedRuns - hits,
                timedRuns);
    return String.format(
        Locale.ROOT,
        "; snapshot cache during P2: %d copies made, %d of %d lake reads from copies (%s)",
        copies,
        hits,
        warmupRounds + timedRuns,
        timed);
  }
}
