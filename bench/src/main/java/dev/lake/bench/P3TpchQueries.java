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
import java.util.Map;
import java.util.Optional;

/**
 * P3: TPC-H Q1, Q3, Q5, Q6, Q10, Q12, Q14, Q19 end to end through lake over {@code lake.tpch.*}
 * (Lance) and {@code iceberg.tpch.*}, against in-process DuckDB over the same data as local Parquet
 * files (views named like lake's tables). One group per query: lance, iceberg and DuckDB runs
 * interleaved. Also reports the geometric mean over the queries per variant.
 */
final class P3TpchQueries implements Metric {
  /** Longest wait per priming pass for the background copies to finish. */
  static final Duration COPY_WAIT = Duration.ofSeconds(60);

  private static final String LABEL = "in-process DuckDB over the same data as local Parquet";

  @Override
  public String id() {
    return "P3";
  }

  @Override
  public String title() {
    return "TPC-H "
        + String.join(", ", TpchQueries.IDS)
        + " over lake.tpch (Lance) and"
        + " iceberg.tpch vs in-process DuckDB over local Parquet";
  }

  @Override
  public List<Result> run(BenchContext context) throws Exception {
    BenchConfig config = context.config();
    Optional<LakeStack> lake = context.lake();
    Optional<String> icebergMissing =
        lake.isPresent() ? lake.get().icebergMissing() : Optional.of(context.lakeMissing());
    Map<String, String> lance = TpchQueries.forCatalog("lake");
    Map<String, String> iceberg = TpchQueries.forCatalog("iceberg");
    List<Group> groups = new ArrayList<>();
    for (String q : TpchQueries.IDS) {
      List<Side> sides = new ArrayList<>();
      if (lake.isPresent()) {
        sides.add(Side.of("lance", Kind.FLIGHT_SQL, lake.get().uri(), lance.get(q)));
        for (String kind : FRESH_KINDS) {
          sides.add(
              new Side(
                  "lance-" + kind,
                  Kind.FLIGHT_SQL,
                  lake.get().uri(),
                  lance.get(q),
                  Map.of(FreshText.OPTION, kind)));
        }
        if (icebergMissing.isEmpty()) {
          sides.add(Side.of("iceberg", Kind.FLIGHT_SQL, lake.get().uri(), iceberg.get(q)));
        }
      }
      sides.add(Side.of("duckdb", Kind.DUCKDB, context.parquet().toString(), lance.get(q)));
      sides.add(
          Side.of(
              "duckdb-memory",
              Kind.DUCKDB,
              ClientSides.MEMORY + context.parquet().toString(),
              lance.get(q)));
      groups.add(new Group(q, 1, sides));
    }
    String primed = "";
    if (lake.isPresent() && lake.get().cacheStats().isPresent() && config.warmups() > 0) {
      List<Group> lakeGroups = new ArrayList<>();
      for (Group g : groups) {
        // never-seen texts read the same tables: priming them would only prime the same copies
        List<Side> lakeSides =
            g.sides().stream()
                .filter(s -> s.kind() == Kind.FLIGHT_SQL)
                .filter(s -> !s.options().containsKey(FreshText.OPTION))
                .toList();
        lakeGroups.add(new Group("p3-prime-" + g.name(), 1, lakeSides));
      }
      primed = CachePrimer.prime(context, lake.get(), lakeGroups, COPY_WAIT);
    }
    Optional<CacheStats> cacheBefore = lake.flatMap(LakeStack::cacheStats);
    Optional<LakeStack.CatalogUsage> catalogBefore = lake.flatMap(LakeStack::icebergCatalogUsage);
    Outcome outcome =
        context.clients().run(config.spec(lake.map(LakeStack::token).orElse("none"), groups));
    String cacheNote = cacheNote(cacheBefore, lake.flatMap(LakeStack::cacheStats));
    String catalogNote = catalogNote(catalogBefore, lake.flatMap(LakeStack::icebergCatalogUsage));
    List<Result> results = new ArrayList<>();
    for (String variant : List.of("lance", "iceberg")) {
      Optional<String> missing =
          lake.isEmpty()
              ? Optional.of(context.lakeMissing())
              : variant.equals("iceberg") ? icebergMissing : Optional.empty();
      List<Stats[]> pairs = new ArrayList<>();
      List<Stats[]> memoryPairs = new ArrayList<>();
      for (String q : TpchQueries.IDS) {
        Samples duck = outcome.get(q, "duckdb");
        if (missing.isPresent()) {
          results.add(
              Result.notAvailable(
                  id(), q + "-" + variant, duck.millis(), "ms", LABEL, missing.get()));
          continue;
        }
        Samples l = outcome.get(q, variant);
        if (!l.rows().get(0).equals(duck.rows().get(0))) {
          // a wrong answer is a failure of the run, never a timing to compare
          results.add(
              Result.failed(
                  id(),
                  q + "-" + variant,
                  "ms",
                  String.format(
                      Locale.ROOT,
                      "ROW COUNT DIFFERS: lake %d, DuckDB %d",
                      l.rows().get(0),
                      duck.rows().get(0))));
          continue;
        }
        String note =
            String.format(
                Locale.ROOT,
                "target ≤ 1.3×; %d result rows; %d runs; %s",
                l.rows().get(0),
                l.nanos().size(),
                outcome.warmupNote(q));
        pairs.add(new Stats[] {l.millis(), duck.millis()});
        memoryPairs.add(new Stats[] {l.millis(), outcome.get(q, "duckdb-memory").millis()});
        results.add(
            Result.measured(
                id(), q + "-" + variant, l.millis(), duck.millis(), "ms", LABEL, false, note));
      }
      if (!pairs.isEmpty()) {
        results.add(
            Result.measured(
                id(),
                "geomean-" + variant,
                geomean(pairs, 0),
                geomean(pairs, 1),
                "ms",
                LABEL,
                false,
                "geometric mean over "
                    + pairs.size()
                    + " queries"
                    + primed
                    + cacheNote
                    + (variant.equals("iceberg") ? catalogNote : "")));
        results.add(
            Result.measured(
                id(),
                "geomean-" + variant + "-vs-memory",
                geomean(memoryPairs, 0),
                geomean(memoryPairs, 1),
                "ms",
                "DuckDB, the same data as its own in-memory tables",
                false,
                "geometric mean over "
                    + memoryPairs.size()
                    + " queries, the same lake runs as geomean-"
                    + variant
                    + "; the limit for a warm cache"
                    + primed));
      }
    }
    if (lake.isPresent()) {
      results.addAll(freshResults(outcome));
    }
    return results;
  }

  /** The never-seen-text sides: {@code comment} and {@code literal} ({@link FreshText}). */
  static final List<String> FRESH_KINDS = List.of("comment", "literal");

  private static final String REPEATED_LABEL = "lake over Lance, the same text every run";

  /**
   * Each never-seen-text side against lake's repeated-text side of the same query (Lance), and
   * their geometric means: what a new statement text costs lake (target ≤ 1.2×).
   */
  private List<Result> freshResults(Outcome outcome) {
    List<Result> results = new ArrayList<>();
    for (String kind : FRESH_KINDS) {
      String variant = "lance-" + kind;
      List<Stats[]> pairs = new ArrayList<>();
      for (String q : TpchQueries.IDS) {
        Samples fresh = outcome.get(q, variant);
        Samples repeated = outcome.get(q, "lance");
        if (!fresh.rows().get(0).equals(repeated.rows().get(0))) {
          results.add(
              Result.failed(
                  id(),
                  q + "-" + variant + "-vs-repeated",
                  "ms",
                  String.format(
                      Locale.ROOT,
                      "ROW COUNT DIFFERS: never-seen text %d, repeated text %d",
                      fresh.rows().get(0),
                      repeated.rows().get(0))));
          continue;
        }
        pairs.add(new Stats[] {fresh.millis(), repeated.millis()});
        results.add(
            Result.measured(
                id(),
                q + "-" + variant + "-vs-repeated",
                fresh.millis(),
                repeated.millis(),
                "ms",
                REPEATED_LABEL,
                false,
                String.format(
                    Locale.ROOT,
                    "target ≤ 1.2×; a never-seen text every run (%s); %d runs; %s",
                    kind,
                    fresh.nanos().size(),
                    outcome.warmupNote(q))));
      }
      if (!pairs.isEmpty()) {
        results.add(
            Result.measured(
                id(),
                "geomean-" + variant + "-vs-repeated",
                geomean(pairs, 0),
                geomean(pairs, 1),
                "ms",
                REPEATED_LABEL,
                false,
                "target ≤ 1.2×; geometric mean over " + pairs.size() + " queries"));
      }
    }
    return results;
  }

  /**
   * What the engine's snapshot cache did during P3 (Lance and Iceberg together, warm-up included,
   * after priming), so a figure says whether it was read from copies and whether copies were still
   * being made while it was measured.
   */
  static String cacheNote(Optional<CacheStats> before, Optional<CacheStats> after) {
    if (before.isEmpty() || after.isEmpty()) {
      return "";
    }
    return String.format(
        Locale.ROOT,
        "; snapshot cache during P3 (after priming): %d copies made, %d table reads from copies, %d"
            + " MiB held",
        after.get().snapshotCopies() - before.get().snapshotCopies(),
        after.get().snapshotHits() - before.get().snapshotHits(),
        after.get().snapshotBytes() >> 20);
  }

  /**
   * What the Iceberg catalog server (its own JVM, on the cores lake and DuckDB share here) spent
   * during P3: every Iceberg DoGet makes one REST loadTable per table (lake's fail-closed snapshot
   * check), and the server's CPU for them is taken from the same two cores the queries run on, a
   * cost the DuckDB baseline does not have and a remote production catalog would not put on lake's
   * machine. Warm-up rounds included.
   */
  static String catalogNote(
      Optional<LakeStack.CatalogUsage> before, Optional<LakeStack.CatalogUsage> after) {
    if (before.isEmpty() || after.isEmpty()) {
      return "";
    }
    long loads = after.get().loads() - before.get().loads();
    double cpuMs = (after.get().cpuNanos() - before.get().cpuNanos()) / 1e6;
    return String.format(
        Locale.ROOT,
        "; Iceberg catalog JVM (same cores) during P3: %d loadTable requests, %.1f s CPU%s",
        loads,
        cpuMs / 1e3,
        loads > 0 ? String.format(Locale.ROOT, " (%.1f ms per request)", cpuMs / loads) : "");
  }

  private static Stats geomean(List<Stats[]> pairs, int side) {
    double logMedian = 0;
    double logP95 = 0;
    for (Stats[] p : pairs) {
      logMedian += Math.log(p[side].median());
      logP95 += Math.log(p[side].p95());
    }
    return new Stats(
        Math.exp(logMedian / pairs.size()), Math.exp(logP95 / pairs.size()), pairs.size());
  }
}
