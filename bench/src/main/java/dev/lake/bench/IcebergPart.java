package dev.lake.bench;

import dev.lake.iceberg.IcebergConfig;
import dev.lake.iceberg.IcebergFederation;
import dev.lake.iceberg.IcebergFilesConfig;
import io.trino.tpch.TpchTable;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.arrow.memory.BufferAllocator;

/**
 * The Iceberg side of the bench: Iceberg's own REST catalog server (lake-iceberg-demo fixture, a
 * SQLite catalog kept in the data cache so tables are written once per scale factor) with the TPC-H
 * table set, in a JVM of its own ({@link RestCatalogProcess}), and lake's federation in this JVM
 * connected to it. The catalog's process counts REST requests.
 */
final class IcebergPart implements AutoCloseable {
  static final String COLD_NAMESPACE = "bench_cold";

  private final RestCatalogProcess catalog;
  private final IcebergFederation federation;
  private final AtomicInteger coldTables = new AtomicInteger();
  private final long runId = System.currentTimeMillis();

  private IcebergPart(RestCatalogProcess catalog, IcebergFederation federation) {
    this.catalog = catalog;
    this.federation = federation;
  }

  /**
   * Starts the catalog over {@code dataDir/iceberg-one-file-per-table} and writes the TPC-H tables
   * from the Parquet baseline files in {@code parquet} when missing; the catalog JVM's log is
   * {@code workDir/rest-catalog.log}. (The directory name changes with the layout, so a cache of an
   * older layout is never read: {@code iceberg/} held GZIP files with one 500,000-row group each,
   * {@code iceberg-baseline-layout/} four row groups per file.)
   */
  static IcebergPart start(
      Path dataDir, Path parquet, Path workDir, Duration catalogWarmup, BufferAllocator allocator)
      throws Exception {
    // Iceberg 1.11 registers its file-format models in FormatModelRegistry's static initializer,
    // by reflection through the thread's context class loader. If the first touch happens on a
    // DuckDB scan thread (attached from native code, no context class loader), registration
    // fails and every Iceberg read fails with "Format model is not registered for format
    // PARQUET". Initialize it here on a normal Java thread. (Reported to lake-iceberg.)
    Class.forName(
        "org.apache.iceberg.formats.FormatModelRegistry", true, IcebergPart.class.getClassLoader());
    RestCatalogProcess catalog =
        RestCatalogProcess.start(
            dataDir.resolve("iceberg-one-file-per-table"),
            parquet,
            workDir.resolve("rest-catalog.log"),
            catalogWarmup);
    try {
      // Direct reads (DuckDB's own Parquet reader over the pinned plan's files) are the default;
      // LAKE_BENCH_ICEBERG_DIRECT=false measures Iceberg's generic reader instead.
      boolean direct =
          !System.getenv().getOrDefault("LAKE_BENCH_ICEBERG_DIRECT", "true").trim().equals("false");
      IcebergFederation federation =
          IcebergFederation.connect(
              IcebergConfig.fromFlags(
                  catalog.uri().toString(), null, TpchIceberg.NAMESPACE + "," + COLD_NAMESPACE),
              direct ? IcebergFilesConfig.defaults() : IcebergFilesConfig.genericOnly(),
              allocator);
      return new IcebergPart(catalog, federation);
    } catch (Exception | Error e) {
      catalog.close();
      throw e;
    }
  }

  IcebergFederation federation() {
    return federation;
  }

  /** A new tiny table in {@link #COLD_NAMESPACE}, created through the backend (not counted). */
  String coldTable() {
    String name = "nation_" + runId + "_" + coldTables.incrementAndGet();
    catalog.createNation(COLD_NAMESPACE, name);
    return "iceberg." + COLD_NAMESPACE + "." + name;
  }

  long loadTableCalls(String qualified) {
    String[] parts = qualified.split("\\.");
    return catalog.loadTableRequests(parts[1], parts[2]);
  }

  /** The catalog process's CPU and its TPC-H loadTable requests so far; empty if not known. */
  Optional<LakeStack.CatalogUsage> usage() {
    Optional<Duration> cpu = catalog.cpu();
    if (cpu.isEmpty()) {
      return Optional.empty();
    }
    long loads = 0;
    for (TpchTable<?> t : TpchTable.getTables()) {
      loads += catalog.loadTableRequests(TpchIceberg.NAMESPACE, t.getTableName());
    }
    return Optional.of(new LakeStack.CatalogUsage(cpu.get().toNanos(), loads));
  }

  @Override
  public void close() throws Exception {
    try {
      federation.close();
    } finally {
      catalog.close();
    }
  }
}
