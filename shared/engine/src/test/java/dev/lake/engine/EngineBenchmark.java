package dev.lake.engine;

import dev.lake.core.AdmittedQuery;
import dev.lake.core.Catalogs;
import dev.lake.core.Principal;
import dev.lake.core.ScanRequest;
import dev.lake.core.SnapshotSet;
import dev.lake.core.TableRef;
import dev.lake.core.local.FileRegistry;
import dev.lake.lance.LanceTableReader;
import dev.lake.lance.LanceTableResolver;
import dev.lake.lance.demo.TpchDemo;
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
import org.apache.arrow.vector.ipc.ArrowReader;
import org.duckdb.DuckDBConnection;

/**
 * Prints median timings of small queries and the TPC-H queries of P3 through the engine (Lance,
 * pushdown, parallel streams), through the engine with its snapshot cache, and through DuckDB over
 * local Parquet files of the same data (written by DuckDB {@code COPY}), interleaved run by run.
 * Not a test: run it by hand, e.g. {@code java -cp ... dev.lake.engine.EngineBenchmark 0.1 7
 * /tmp/lake-bench-data/sf0.1 [cacheMiB] [queries]} ({@code -Dbench.batch}, {@code
 * -Dbench.parallelism} override the scan batch size and streams; {@code -Dbench.skipUncached=Q5}
 * leaves queries out of the uncached arm). Generated data is reused.
 */
public final class EngineBenchmark {
  public static void main(String[] args) throws Exception {
    double sf = args.length > 0 ? Double.parseDouble(args[0]) : 0.1;
    int runs = args.length > 1 ? Integer.parseInt(args[1]) : 7;
    Path dir =
        args.length > 2 ? Path.of(args[2]) : Path.of("/tmp/lake-bench-data/sf" + sf).normalize();
    long cacheBytes = args.length > 3 ? Long.parseLong(args[3]) << 20 : 0;
    List<String> only = args.length > 4 ? List.of(args[4].split(",")) : List.of();
    Files.createDirectories(dir);
    try (RootAllocator allocator = new RootAllocator()) {
      FileRegistry registry = new FileRegistry(dir.resolve("registry.json"));
      long t0 = System.nanoTime();
      TpchDemo.generate(dir.resolve("data"), sf, registry, allocator);
      System.out.printf("data SF %.2f ready: %d ms%n", sf, (System.nanoTime() - t0) / 1_000_000);
      LanceTableResolver resolver =
          new LanceTableResolver(registry, allocator, Duration.ofMinutes(10));
      Catalogs catalogs = new Catalogs(List.of(resolver));
      Principal p = Principal.of("t", "bench", Set.of("lake.tpch"));
      LanceTableReader reader = new LanceTableReader(allocator);
      Path parquet = parquet(dir, resolver, reader, allocator);
      Map<String, String> queries = new LinkedHashMap<>();
      queries.put("nation", "SELECT * FROM {nation}");
      queries.put("point", "SELECT count(*) FROM {orders} WHERE o_orderkey = 1");
      queries.putAll(TpchQueries.P3);
      queries.keySet().removeIf(k -> !only.isEmpty() && !only.contains(k));
      long memory = Math.max(2L << 30, 2 * cacheBytes + (1L << 30));
      int batch = Integer.getInteger("bench.batch", 65536);
      List<String> skipUncached = List.of(System.getProperty("bench.skipUncached", "").split(","));
      int streams = Integer.getInteger("bench.parallelism", 2);
      EngineConfig base =
          new EngineConfig(memory, 2, dir.resolve("spill"), 4L << 30, batch, streams);
      try (DuckDbSqlAdmission admission = new DuckDbSqlAdmission();
          DuckDbQueryEngine engine = new DuckDbQueryEngine(base, List.of(reader));
          DuckDbQueryEngine cached =
              new DuckDbQueryEngine(
                  base.withSnapshotCacheBytes(Math.max(cacheBytes, 1)), List.of(reader));
          DuckDBConnection nat =
              (DuckDBConnection) new org.duckdb.DuckDBDriver().connect("jdbc:duckdb:", null)) {
        try (Statement s = nat.createStatement()) {
          s.execute("SET threads = 2");
          for (String t : TABLES) {
            s.execute(
                "CREATE VIEW "
                    + t
                    + " AS SELECT * FROM read_parquet('"
                    + parquet.resolve(t + ".parquet")
                    + "')");
          }
        }
        System.out.printf(
            "%-7s %10s %10s %10s %8s %8s %10s  (ms; SF %.2f, medians of %d interleaved runs,"
                + " cache %d MiB; cold = first cached run)%n",
            "query",
            "engine",
            "cached",
            "parquet",
            "ratio",
            "cached",
            "cold",
            sf,
            runs,
            cacheBytes >> 20);
        for (Map.Entry<String, String> q : queries.entrySet()) {
          AdmittedQuery admitted = admission.admit(TpchQueries.lake(q.getValue()));
          SnapshotSet snapshots = catalogs.resolveAll(p, admitted);
          String local = TpchQueries.local(q.getValue());
          int n = q.getKey().equals("nation") || q.getKey().equals("point") ? runs * 20 : runs;
          List<Long> lake = new ArrayList<>();
          List<Long> hot = new ArrayList<>();
          List<Long> pq = new ArrayList<>();
          boolean skip = skipUncached.contains(q.getKey());
          long cold = 0;
          for (int i = -1; i < n; i++) { // i = -1: warm-up
            long[] t = new long[3];
            for (int k = 0; k < 3; k++) { // the arms take turns going first
              int arm = (k + Math.max(i, 0)) % 3;
              long a = System.nanoTime();
              if (arm == 0 && !skip) {
                EngineTestSupport.rows(engine.execute(admitted, List.of(), snapshots, allocator));
              } else if (arm == 1) {
                EngineTestSupport.nativeRows(nat, local, allocator);
              } else if (arm == 2 && cacheBytes > 0) {
                EngineTestSupport.rows(cached.execute(admitted, List.of(), snapshots, allocator));
              }
              t[arm] = System.nanoTime() - a;
            }
            if (i < 0) {
              cold = t[2];
            } else {
              lake.add(t[0]);
              pq.add(t[1]);
              hot.add(t[2]);
            }
          }
          long l = median(lake);
          long r = median(pq);
          long h = median(hot);
          System.out.printf(
              "%-7s %10.2f %10.2f %10.2f %7.2fx %7.2fx %10.2f%n",
              q.getKey(), l / 1e6, h / 1e6, r / 1e6, (double) l / r, (double) h / r, cold / 1e6);
        }
      }
    }
  }

  static final List<String> TABLES =
      List.of("nation", "region", "part", "supplier", "partsupp", "customer", "orders", "lineitem");

  /** Local Parquet copies of the Lance tables, written once by DuckDB COPY from native tables. */
  private static Path parquet(
      Path dir, LanceTableResolver resolver, LanceTableReader reader, RootAllocator allocator)
      throws Exception {
    Path out = dir.resolve("parquet");
    if (Files.exists(out.resolve(".complete"))) {
      return out;
    }
    Files.createDirectories(out);
    Map<String, ArrowReader> tables = new LinkedHashMap<>();
    for (String t : TABLES) {
      TableRef ref = TableRef.parse("lake.tpch." + t);
      tables.put(
          t, reader.scan(ref, resolver.resolve(ref), ScanRequest.all(65536), allocator).get(0));
    }
    try (DuckDBConnection c = EngineTestSupport.nativeDuckDb(tables, allocator);
        Statement s = c.createStatement()) {
      for (String t : TABLES) {
        s.execute("COPY " + t + " TO '" + out.resolve(t + ".parquet") + "' (FORMAT parquet)");
      }
    }
    Files.writeString(out.resolve(".complete"), "");
    return out;
  }

  private static long median(List<Long> xs) {
    List<Long> s = new ArrayList<>(xs);
    Collections.sort(s);
    return s.get(s.size() / 2);
  }
}
