package dev.lake.engine;

import static dev.lake.engine.EngineTestSupport.rows;
import static org.assertj.core.api.Assertions.assertThat;

import dev.lake.core.AdmittedQuery;
import dev.lake.core.Catalogs;
import dev.lake.core.Principal;
import dev.lake.core.QueryExecution;
import dev.lake.core.QueryStats;
import dev.lake.core.SnapshotSet;
import dev.lake.core.TableRef;
import dev.lake.core.local.FileRegistry;
import dev.lake.lance.LanceTableReader;
import dev.lake.lance.LanceTableResolver;
import dev.lake.lance.demo.TpchDemo;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.stream.Stream;
import org.apache.arrow.memory.RootAllocator;
import org.duckdb.DuckDBConnection;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Per-query accounting of the real engine over real Lance datasets (TPC-H SF 0.01). */
class QueryAccountingTest {
  @TempDir static Path dir;

  static RootAllocator allocator;
  static FileRegistry registry;
  static DuckDbQueryEngine engine;
  static DuckDbSqlAdmission admission;
  static Catalogs catalogs;
  static final Principal ALICE = Principal.of("t1", "alice", Set.of("lake.tpch"));

  @BeforeAll
  static void setUp() {
    allocator = new RootAllocator();
    registry = new FileRegistry(dir.resolve("registry.json"));
    TpchDemo.generate(dir.resolve("data"), 0.01, registry, allocator);
    engine =
        new DuckDbQueryEngine(
            new EngineConfig(512L << 20, 2, dir.resolve("spill"), 1L << 30, 4096, 2),
            List.of(new LanceTableReader(allocator)));
    admission = new DuckDbSqlAdmission();
    catalogs = new Catalogs(List.of(new LanceTableResolver(registry, allocator, Duration.ZERO)));
  }

  @AfterAll
  static void tearDown() {
    engine.close();
    admission.close();
    allocator.close();
  }

  /** Runs {@code sql} to the end; returns its row count and its final stats. */
  private static QueryStats run(String sql, long expectedRows) throws Exception {
    AdmittedQuery q = admission.admit(sql);
    SnapshotSet s = catalogs.resolveAll(ALICE, q);
    try (QueryExecution e = engine.execute(q, List.of(), s, allocator)) {
      assertThat(e.stats().resultBytes()).as("nothing produced before the first pull").isZero();
      assertThat(rows(e.reader())).hasSize((int) expectedRows);
      // the figures a stream's end hands over without waiting are the final ones
      QueryStats later = e.statsLater().get(5, java.util.concurrent.TimeUnit.SECONDS);
      assertThat(later).isEqualTo(e.stats());
      return later;
    }
  }

  @Test
  void lanceQuery_accountsScannedAndResultBytes_withinTheDatasetSize() throws Exception {
    // GIVEN lineitem as a Lance dataset of a known size on disk
    long rows = 60_175;
    long datasetBytes = sizeOnDisk(TableRef.parse("lake.tpch.lineitem"));
    // WHEN one BIGINT column of every row is read
    QueryStats one = run("SELECT l_orderkey FROM lake.tpch.lineitem", rows);
    // THEN at least 8 bytes per row were scanned and produced, and no more than the dataset holds
    assertThat(one.scannedBytes()).isBetween(rows * 8, datasetBytes);
    assertThat(one.resultBytes()).isGreaterThanOrEqualTo(rows * 8);
    assertThat(one.arrowPeakBytes()).isPositive();
    assertThat(one.memoryPeakBytes()).isGreaterThanOrEqualTo(one.arrowPeakBytes());
    // AND reading four columns scans more than one, while an aggregate produces almost nothing
    QueryStats four =
        run(
            "SELECT sum(l_quantity), min(l_orderkey), max(l_partkey), count(l_suppkey)"
                + " FROM lake.tpch.lineitem",
            1);
    assertThat(four.scannedBytes()).isGreaterThan(one.scannedBytes());
    assertThat(four.resultBytes()).isLessThan(1024);
  }

  @Test
  void gauge_seesMemoryAndSpillFiles_ofASortLargerThanTheMemoryLimit() throws Exception {
    // GIVEN a DuckDB limited to 16 MiB with a spill directory, streaming results like the engine
    Path spill = dir.resolve("gauge-spill");
    java.util.Properties streamed = new java.util.Properties();
    streamed.setProperty(org.duckdb.DuckDBDriver.JDBC_STREAM_RESULTS, "true");
    try (DuckDBConnection db =
        (DuckDBConnection) new org.duckdb.DuckDBDriver().connect("jdbc:duckdb:", streamed)) {
      try (Statement s = db.createStatement()) {
        s.execute("SET memory_limit = '16MiB'");
        s.execute("SET threads = 1");
        s.execute("SET temp_directory = '" + spill + "'");
        s.execute("SET preserve_insertion_order = false");
      }
      try (EngineGauge gauge = new EngineGauge(db.duplicate());
          DuckDBConnection query = db.duplicate();
          Statement s = query.createStatement();
          // WHEN a sort of ~15 MB of strings has produced its first row
          ResultSet rs =
              s.executeQuery("SELECT i, md5(i::VARCHAR) AS h FROM range(300000) t(i) ORDER BY h")) {
        assertThat(rs.next()).isTrue();
        EngineGauge.Sample sample = gauge.sample();
        // THEN the gauge sees buffer memory in use and the sort's spill files
        assertThat(sample.memoryBytes()).isPositive();
        assertThat(sample.spillBytes()).isPositive();
      }
      // AND once the query is gone its spill files are too
      try (EngineGauge gauge = new EngineGauge(db.duplicate())) {
        assertThat(gauge.sample().spillBytes()).isZero();
      }
    }
  }

  private static long sizeOnDisk(TableRef ref) throws Exception {
    Path location = Path.of(registry.find(ref).orElseThrow().location());
    try (Stream<Path> files = Files.walk(location)) {
      return files.filter(Files::isRegularFile).mapToLong(p -> p.toFile().length()).sum();
    }
  }
}
