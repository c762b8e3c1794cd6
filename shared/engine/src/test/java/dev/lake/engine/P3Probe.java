package dev.lake.engine;

import dev.lake.core.AdmittedQuery;
import dev.lake.core.Catalogs;
import dev.lake.core.Principal;
import dev.lake.core.SnapshotSet;
import dev.lake.core.local.FileRegistry;
import dev.lake.lance.LanceTableReader;
import dev.lake.lance.LanceTableResolver;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.arrow.memory.RootAllocator;
import org.duckdb.DuckDBConnection;

/**
 * In-process P3 probe over the bench's own data (a {@code bench/run.sh --cache} directory {@code
 * sf-N} with {@code lance/registry.json} and {@code parquet/}): each TPC-H query of the bench (its
 * own texts) through engines of given configurations (as the front door runs them, {@code
 * forTenant}) and through DuckDB over the baseline Parquet (views, as the bench's client), arms
 * interleaved and rotating, medians, plus process CPU per run and snapshot-cache counters. Not a
 * test: {@code java -cp ... dev.lake.engine.P3Probe <sf-dir> <runs> <warmups> <arms> [queries]},
 * arms a comma list of {@code shipped} (EngineConfig.defaults), {@code pools1} (one pool), {@code
 * cacheNNN} (shipped with NNN MiB of cache), {@code memNNN} (NNN MiB of engine memory, a quarter of
 * it cache).
 */
public final class P3Probe {
  public static void main(String[] args) throws Exception {
    Path dir = Path.of(args[0]);
    int runs = Integer.parseInt(args[1]);
    int warmups = Integer.parseInt(args[2]);
    List<String> armNames = List.of(args[3].split(","));
    Path texts =
        Path.of(System.getProperty("probe.texts", "bench/src/main/resources/dev/lake/bench/tpch"));
    List<String> only = args.length > 4 ? List.of(args[4].split(",")) : List.of();
    var os =
        (com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean();
    try (RootAllocator allocator = new RootAllocator()) {
      FileRegistry registry = new FileRegistry(dir.resolve("lance/registry.json"));
      LanceTableResolver resolver =
          new LanceTableResolver(registry, allocator, Duration.ofMinutes(10));
      Catalogs catalogs = new Catalogs(List.of(resolver));
      Principal p = Principal.of("t", "bench", Set.of("lake.tpch"));
      LanceTableReader reader = new LanceTableReader(allocator);
      Map<String, String> queries = new LinkedHashMap<>();
      for (String q : List.of("q1", "q3", "q5", "q6", "q10", "q12", "q14", "q19")) {
        if (only.isEmpty() || only.contains(q)) {
          queries.put(q, Files.readString(texts.resolve(q + ".sql")));
        }
      }
      List<DuckDbQueryEngine> engines = new ArrayList<>();
      Path spill = Files.createTempDirectory("p3probe");
      for (String a : armNames) {
        EngineConfig c = EngineConfig.defaults(spill.resolve(a));
        if (a.equals("pools1")) {
          c = c.withMemoryPools(1);
        } else if (a.startsWith("mem")) { // engine memory in MiB, the cache a quarter of it
          long bytes = Long.parseLong(a.substring(3)) << 20;
          c =
              EngineConfigBuilder.builder(c)
                  .memoryLimitBytes(bytes)
                  .snapshotCacheBytes(bytes / 4)
                  .build();
        } else if (a.startsWith("cache")) {
          c = c.withSnapshotCacheBytes(Long.parseLong(a.substring(5)) << 20);
        } else if (!a.equals("shipped")) {
          throw new IllegalArgumentException(a);
        }
        engines.add(new DuckDbQueryEngine(c, List.of(reader)));
      }
      try (DuckDbSqlAdmission admission = new DuckDbSqlAdmission();
          DuckDBConnection duck =
              (DuckDBConnection) new org.duckdb.DuckDBDriver().connect("jdbc:duckdb:", null)) {
        try (Statement s = duck.createStatement()) {
          s.execute("ATTACH ':memory:' AS lake");
          s.execute("CREATE SCHEMA lake.tpch");
          for (String t : EngineBenchmark.TABLES) {
            s.execute(
                "CREATE VIEW lake.tpch."
                    + t
                    + " AS SELECT * FROM read_parquet('"
                    + dir.resolve("parquet/" + t + ".parquet")
                    + "')");
          }
        }
        int n = engines.size() + 1;
        System.out.printf(
            "load %.2f; arms %s + parquet; runs %d after %d warm-up%n",
            os.getSystemLoadAverage(), armNames, runs, warmups);
        for (Map.Entry<String, String> q : queries.entrySet()) {
          AdmittedQuery admitted = admission.admit(q.getValue());
          SnapshotSet snapshots = catalogs.resolveAll(p, admitted);
          List<List<Long>> wall = new ArrayList<>();
          List<List<Long>> cpu = new ArrayList<>();
          for (int k = 0; k < n; k++) {
            wall.add(new ArrayList<>());
            cpu.add(new ArrayList<>());
          }
          long[] hits0 = new long[engines.size()];
          long[] mats0 = new long[engines.size()];
          for (int i = -warmups; i < runs; i++) {
            if (i == 0) {
              for (int e = 0; e < engines.size(); e++) {
                hits0[e] = hits(engines.get(e));
                mats0[e] = mats(engines.get(e));
              }
            }
            for (int k = 0; k < n; k++) {
              int arm = (k + Math.max(i, 0)) % n;
              long c0 = os.getProcessCpuTime();
              long a = System.nanoTime();
              if (arm == engines.size()) {
                try (DuckDBConnection c = (DuckDBConnection) duck.duplicate()) {
                  EngineTestSupport.nativeRows(c, q.getValue(), allocator);
                }
              } else {
                EngineTestSupport.rows(
                    engines
                        .get(arm)
                        .forTenant("bench")
                        .execute(admitted, List.of(), snapshots, allocator));
              }
              if (i >= 0) {
                wall.get(arm).add(System.nanoTime() - a);
                cpu.get(arm).add(os.getProcessCpuTime() - c0);
              }
            }
          }
          long pw = median(wall.get(n - 1));
          long pc = median(cpu.get(n - 1));
          StringBuilder line =
              new StringBuilder(
                  String.format(
                      "%-4s parquet %7.1f ms cpu %7.1f |", q.getKey(), pw / 1e6, pc / 1e6));
          for (int e = 0; e < engines.size(); e++) {
            long w = median(wall.get(e));
            long c = median(cpu.get(e));
            line.append(
                String.format(
                    " %s %7.1f ms %5.2fx cpu %5.2fx min %5.2fx hits %d mats %d cached %d MiB |",
                    armNames.get(e),
                    w / 1e6,
                    (double) w / pw,
                    (double) c / pc,
                    (double) Collections.min(wall.get(e)) / Collections.min(wall.get(n - 1)),
                    hits(engines.get(e)) - hits0[e],
                    mats(engines.get(e)) - mats0[e],
                    cached(engines.get(e)) >> 20));
          }
          System.out.println(line);
        }
        System.out.printf("load %.2f%n", os.getSystemLoadAverage());
      } finally {
        engines.forEach(DuckDbQueryEngine::close);
      }
    }
  }

  private static long hits(DuckDbQueryEngine e) {
    return sum(e, SnapshotCache::hits);
  }

  private static long mats(DuckDbQueryEngine e) {
    return sum(e, SnapshotCache::materializations);
  }

  private static long cached(DuckDbQueryEngine e) {
    return sum(e, SnapshotCache::cachedBytes);
  }

  /** {@code f} summed over the caches of every pool of {@code e}. */
  private static long sum(DuckDbQueryEngine e, java.util.function.ToLongFunction<SnapshotCache> f) {
    long s = 0;
    for (int i = 0; i < e.poolsForTest().size(); i++) {
      SnapshotCache c = e.poolsForTest().pool(i).snapshotCache();
      s += c == null ? 0 : f.applyAsLong(c);
    }
    return s;
  }

  private static long median(List<Long> xs) {
    List<Long> s = new ArrayList<>(xs);
    Collections.sort(s);
    return s.get(s.size() / 2);
  }
}
