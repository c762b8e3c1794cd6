package dev.lake.engine;

import dev.lake.core.AdmittedQuery;
import dev.lake.core.Catalogs;
import dev.lake.core.Principal;
import dev.lake.core.ScanRequest;
import dev.lake.core.SnapshotSet;
import dev.lake.core.TableRef;
import dev.lake.core.local.FileRegistry;
import dev.lake.engine.demo.TpchDemo;
import dev.lake.engine.lance.LanceTableReader;
import dev.lake.engine.lance.LanceTableResolver;
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
 * Prints median timings of TPC-H Q1/Q3/Q6 through the engine (Lance, pushdown, parallel streams)
 * and through DuckDB over native tables of the same data. Not a test: run it by hand, e.g. with
 * {@code java -cp ... dev.lake.engine.EngineBenchmark 0.1 /tmp/lake-bench}.
 */
public final class EngineBenchmark {
  public static void main(String[] args) throws Exception {
    double sf = args.length > 0 ? Double.parseDouble(args[0]) : 0.1;
    Path dir = args.length > 1 ? Path.of(args[1]) : Files.createTempDirectory("lake-bench");
    int runs = 7;
    try (RootAllocator allocator = new RootAllocator()) {
      FileRegistry registry = new FileRegistry(dir.resolve("registry.json"));
      long t0 = System.nanoTime();
      TpchDemo.generate(dir.resolve("data"), sf, registry, allocator);
      System.out.printf("generate SF %.2f: %d ms%n", sf, (System.nanoTime() - t0) / 1_000_000);
      LanceTableResolver resolver =
          new LanceTableResolver(registry, allocator, Duration.ofMinutes(1));
      Catalogs catalogs = new Catalogs(List.of(resolver));
      Principal p = new Principal("t", "bench", Set.of("lake.tpch"));
      Map<String, ArrowReader> tables = new LinkedHashMap<>();
      LanceTableReader reader = new LanceTableReader(allocator);
      for (String t : List.of("lineitem", "orders", "customer")) {
        TableRef ref = TableRef.parse("lake.tpch." + t);
        tables.put(
            t, reader.scan(ref, resolver.resolve(ref), ScanRequest.all(65536), allocator).get(0));
      }
      try (DuckDbSqlAdmission admission = new DuckDbSqlAdmission();
          DuckDbQueryEngine engine =
              new DuckDbQueryEngine(
                  new EngineConfig(2L << 30, 2, dir.resolve("spill"), 4L << 30, 65536, 2),
                  List.of(reader));
          DuckDBConnection nat = EngineTestSupport.nativeDuckDb(tables, allocator)) {
        try (Statement s = nat.createStatement()) {
          s.execute("SET threads = 2");
        }
        for (String[] q :
            new String[][] {
              {"tiny", "SELECT count(*) FROM {orders} WHERE o_orderkey = 1"},
              {"Q6-nofilter", "SELECT sum(l_extendedprice * l_discount) FROM {lineitem}"},
              {"Q1", TpchQueries.Q1},
              {"Q3", TpchQueries.Q3},
              {"Q6", TpchQueries.Q6}
            }) {
          AdmittedQuery admitted = admission.admit(TpchQueries.lake(q[1]));
          SnapshotSet snapshots = catalogs.resolveAll(p, admitted);
          List<Long> lake = new ArrayList<>();
          List<Long> local = new ArrayList<>();
          for (int i = 0; i < runs; i++) {
            long a = System.nanoTime();
            EngineTestSupport.rows(engine.execute(admitted, List.of(), snapshots, allocator));
            lake.add(System.nanoTime() - a);
            long b = System.nanoTime();
            EngineTestSupport.nativeRows(nat, TpchQueries.local(q[1]), allocator);
            local.add(System.nanoTime() - b);
          }
          long l = median(lake);
          long n = median(local);
          System.out.printf(
              "%s SF %.2f: engine %.1f ms, native DuckDB %.1f ms, ratio %.2fx%n",
              q[0], sf, l / 1e6, n / 1e6, (double) l / n);
        }
      }
    }
  }

  private static long median(List<Long> xs) {
    List<Long> s = new ArrayList<>(xs);
    Collections.sort(s);
    return s.get(s.size() / 2);
  }
}
