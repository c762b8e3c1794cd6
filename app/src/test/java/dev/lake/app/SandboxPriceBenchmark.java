package dev.lake.app;

import dev.lake.core.AdmittedQuery;
import dev.lake.core.DataLocations;
import dev.lake.core.Grant;
import dev.lake.core.Principal;
import dev.lake.core.QueryEngine;
import dev.lake.core.QueryExecution;
import dev.lake.core.SnapshotSet;
import dev.lake.core.local.FileRegistry;
import dev.lake.engine.DuckDbSqlAdmission;
import dev.lake.engine.EngineConfig;
import dev.lake.engine.EngineConfigBuilder;
import dev.lake.lance.demo.TpchDemo;
import dev.lake.sandbox.SandboxConfig;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Set;
import org.apache.arrow.memory.RootAllocator;

/**
 * The price of the engine-process boundary, same run, same data, interleaved run by run: a small
 * query's whole engine round trip (P1's engine part: {@code SELECT * FROM lake.tpch.nation}) and a
 * full lineitem scan's throughput (P2's engine part), in-process engine vs engine process, both
 * with the snapshot cache as shipped. Not the Flight bench (its stack builds the engine itself); it
 * isolates what the boundary adds. {@code java -cp … dev.lake.app.SandboxPriceBenchmark <dir> <sf>
 * <runs>}.
 */
public final class SandboxPriceBenchmark {
  private SandboxPriceBenchmark() {}

  public static void main(String[] args) throws Exception {
    Path dir = Path.of(args[0]);
    double sf = Double.parseDouble(args[1]);
    int runs = Integer.parseInt(args[2]);
    Path registryFile = dir.resolve("registry.json");
    if (!Files.exists(registryFile)) {
      try (RootAllocator a = new RootAllocator()) {
        TpchDemo.generate(dir.resolve("data"), sf, new FileRegistry(registryFile), a);
      }
    }
    EngineConfig engine =
        EngineConfigBuilder.builder(EngineConfig.defaults(dir.resolve("spill")))
            .memoryLimitBytes(2L << 30)
            .memoryPools(2)
            .snapshotCacheBytes(512L << 20)
            .build();
    Principal p = new Principal("bench", "bench", Set.of(Grant.parse("lake.tpch")));
    DuckDbSqlAdmission admission = new DuckDbSqlAdmission();
    AdmittedQuery small = admission.admit("SELECT * FROM lake.tpch.nation");
    AdmittedQuery scan = admission.admit("SELECT * FROM lake.tpch.lineitem");
    try (RootAllocator allocator = new RootAllocator();
        LakeRuntime inProcess = start(dir, registryFile, engine, SandboxConfig.inProcess());
        LakeRuntime sandboxed = start(dir, registryFile, engine, SandboxConfig.defaults())) {
      SnapshotSet smallSet = inProcess.catalogs().resolveAll(p, small);
      SnapshotSet scanSet = inProcess.catalogs().resolveAll(p, scan);
      QueryEngine a = inProcess.engine().forTenant("bench");
      QueryEngine b = sandboxed.engine().forTenant("bench");
      // warm: JIT, caches (copies are made on a snapshot's second read, in the background)
      for (int i = 0; i < 300; i++) {
        drain(a, small, smallSet, allocator);
        drain(b, small, smallSet, allocator);
        if (i % 50 == 0) {
          drain(a, scan, scanSet, allocator);
          drain(b, scan, scanSet, allocator);
        }
      }
      Thread.sleep(5000);
      List<Long> sa = new ArrayList<>();
      List<Long> sb = new ArrayList<>();
      List<Double> ta = new ArrayList<>();
      List<Double> tb = new ArrayList<>();
      for (int i = 0; i < runs; i++) {
        boolean aFirst = i % 2 == 0;
        for (int k = 0; k < 10; k++) {
          if (aFirst) {
            sa.add(time(a, small, smallSet, allocator)[0]);
            sb.add(time(b, small, smallSet, allocator)[0]);
          } else {
            sb.add(time(b, small, smallSet, allocator)[0]);
            sa.add(time(a, small, smallSet, allocator)[0]);
          }
        }
        long[] x = aFirst ? time(a, scan, scanSet, allocator) : time(b, scan, scanSet, allocator);
        long[] y = aFirst ? time(b, scan, scanSet, allocator) : time(a, scan, scanSet, allocator);
        (aFirst ? ta : tb).add(x[1] / 1e6 / (x[0] / 1e9));
        (aFirst ? tb : ta).add(y[1] / 1e6 / (y[0] / 1e9));
      }
      double ma = median(sa) / 1e6;
      double mb = median(sb) / 1e6;
      double qa = medianD(ta);
      double qb = medianD(tb);
      System.out.printf(
          "small query round trip (median of %d): in-process %.2f ms, engine process %.2f ms,"
              + " ratio %.2f%n",
          sa.size(), ma, mb, mb / ma);
      System.out.printf(
          "lineitem scan (median of %d): in-process %.0f MB/s, engine process %.0f MB/s,"
              + " ratio %.2f%n",
          ta.size(), qa, qb, qb / qa);
    }
    admission.close();
    System.exit(0);
  }

  private static LakeRuntime start(Path dir, Path registry, EngineConfig engine, SandboxConfig s) {
    return LakeRuntime.start(
        RuntimeConfig.builder(
                RegistrySource.file(registry),
                new KeySource.CreatedFile(dir.resolve("keyring.json")),
                engine)
            .formatSettings(java.util.List.of(DataLocations.of(dir.resolve("data"))))
            .sandbox(s)
            .build());
  }

  private static void drain(QueryEngine e, AdmittedQuery q, SnapshotSet s, RootAllocator allocator)
      throws Exception {
    time(e, q, s, allocator);
  }

  /** Nanoseconds and Arrow bytes of one execution read to the end. */
  private static long[] time(QueryEngine e, AdmittedQuery q, SnapshotSet s, RootAllocator allocator)
      throws Exception {
    long start = System.nanoTime();
    long bytes = 0;
    try (QueryExecution x = e.execute(q, List.of(), s, allocator)) {
      while (x.reader().loadNextBatch()) {
        var root = x.reader().getVectorSchemaRoot();
        for (var v : root.getFieldVectors()) {
          bytes += v.getBufferSize();
        }
      }
    }
    return new long[] {System.nanoTime() - start, bytes};
  }

  private static double median(List<Long> values) {
    List<Long> sorted = new ArrayList<>(values);
    Collections.sort(sorted);
    return sorted.get(sorted.size() / 2);
  }

  private static double medianD(List<Double> values) {
    List<Double> sorted = new ArrayList<>(values);
    Collections.sort(sorted);
    return sorted.get(sorted.size() / 2);
  }
}
