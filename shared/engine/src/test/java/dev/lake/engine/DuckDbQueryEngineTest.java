package dev.lake.engine;

import static dev.lake.engine.EngineTestSupport.nativeRows;
import static dev.lake.engine.EngineTestSupport.rows;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.lake.core.AdmittedQuery;
import dev.lake.core.Catalogs;
import dev.lake.core.ErrorCode;
import dev.lake.core.LakeException;
import dev.lake.core.Principal;
import dev.lake.core.QueryExecution;
import dev.lake.core.ScanRequest;
import dev.lake.core.Snapshot;
import dev.lake.core.SnapshotSet;
import dev.lake.core.TableReader;
import dev.lake.core.TableRef;
import dev.lake.core.local.FileRegistry;
import dev.lake.lance.LanceDatasets;
import dev.lake.lance.LanceFormat;
import dev.lake.lance.LanceTableReader;
import dev.lake.lance.LanceTableResolver;
import dev.lake.lance.demo.TpchDemo;
import java.math.BigDecimal;
import java.nio.file.Path;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.time.LocalDate;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.ipc.ArrowReader;
import org.apache.arrow.vector.types.pojo.Schema;
import org.duckdb.DuckDBConnection;
import org.duckdb.DuckDBResultSet;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class DuckDbQueryEngineTest {
  @TempDir static Path dir;

  static RootAllocator allocator;
  static FileRegistry registry;
  static LanceTableResolver resolver;
  static DuckDbQueryEngine engine;
  static DuckDbSqlAdmission admission;
  static Catalogs catalogs;
  static final Principal ALICE = Principal.of("t1", "alice", Set.of("lake.tpch", "lake.t"));

  @BeforeAll
  static void setUp() {
    allocator = new RootAllocator();
    registry = new FileRegistry(dir.resolve("registry.json"));
    TpchDemo.generate(dir.resolve("data"), 0.01, registry, allocator);
    resolver = new LanceTableResolver(registry, allocator, Duration.ZERO);
    engine =
        new DuckDbQueryEngine(
            new EngineConfig(512L << 20, 2, dir.resolve("spill"), 1L << 30, 4096, 2),
            List.of(new LanceTableReader(allocator)));
    admission = new DuckDbSqlAdmission();
    catalogs = new Catalogs(List.of(resolver));
  }

  @AfterAll
  static void tearDown() {
    engine.close();
    admission.close();
    allocator.close();
  }

  @AfterEach
  void noLeaks() {
    assertThat(allocator.getAllocatedMemory()).isZero();
  }

  private static AdmittedQuery admit(String sql) {
    return admission.admit(sql);
  }

  private static List<List<String>> run(String sql, Object... params) throws Exception {
    AdmittedQuery q = admit(sql);
    SnapshotSet s = catalogs.resolveAll(ALICE, q);
    return rows(engine.execute(q, List.of(params), s, allocator));
  }

  /** Writes rows produced by a native DuckDB query as a Lance dataset and registers it. */
  private static String writeTable(String name, String duckSql, boolean append) throws Exception {
    String location = dir.resolve("t").resolve(name + ".lance").toString();
    try (DuckDBConnection c =
            (DuckDBConnection) new org.duckdb.DuckDBDriver().connect("jdbc:duckdb:", null);
        Statement s = c.createStatement();
        DuckDBResultSet rs = (DuckDBResultSet) s.executeQuery(duckSql)) {
      ArrowReader reader = (ArrowReader) rs.arrowExportStream(allocator, 1024);
      LanceDatasets.write(location, reader, allocator, append);
    }
    TableRef ref = TableRef.parse("lake.t." + name);
    if (registry.find(ref).isEmpty()) {
      LanceFormat.register(registry, ref, location);
    }
    return location;
  }

  @Test
  void execute_returnsTypedValues_includingNulls() throws Exception {
    // GIVEN a Lance table with integers, decimals, dates, timestamps, strings and NULLs
    writeTable(
        "typed",
        "SELECT * FROM (VALUES (1::BIGINT, 7::INTEGER, 12.34::DECIMAL(15,2), DATE '2024-02-29',"
            + " TIMESTAMP '2024-02-29 12:34:56.789', 'héllo'),"
            + " (2, NULL, NULL, NULL, NULL, NULL)) v(id, i, d, dt, ts, s)",
        false);
    // WHEN it is read through the engine
    List<List<String>> rows = run("SELECT id, i, d, dt, ts, s FROM lake.t.typed ORDER BY id");
    // THEN every type round-trips and NULLs stay NULL
    assertThat(rows)
        .containsExactly(
            List.of("1", "7", "12.34", "19782", "2024-02-29T12:34:56.789", "héllo"),
            List.of("2", "NULL", "NULL", "NULL", "NULL", "NULL"));
  }

  @Test
  void openQueries_keepTheirOwnInputs_thoughInputNamesArePositional() throws Exception {
    // GIVEN two statements over different tables, both opened before either is read
    AdmittedQuery a = admit("SELECT count(*) FROM lake.tpch.nation");
    AdmittedQuery b = admit("SELECT count(*) FROM lake.tpch.region");
    try (QueryExecution ea =
            engine.execute(a, List.of(), catalogs.resolveAll(ALICE, a), allocator);
        QueryExecution eb =
            engine.execute(b, List.of(), catalogs.resolveAll(ALICE, b), allocator)) {
      // WHEN both are read THEN each sees its own table (names are private to the connection)
      assertThat(rows(eb.reader())).containsExactly(List.of("5"));
      assertThat(rows(ea.reader())).containsExactly(List.of("25"));
    }
  }

  @Test
  void plan_equalsTheSchemaExecuteStreams() throws Exception {
    // GIVEN an admitted TPC-H Q3
    AdmittedQuery q = admit(TpchQueries.lake(TpchQueries.Q3));
    SnapshotSet s = catalogs.resolveAll(ALICE, q);
    // WHEN planned and executed
    Schema planned = engine.plan(q, s);
    try (QueryExecution e = engine.execute(q, List.of(), s, allocator)) {
      // THEN the planned schema is exactly the streamed one
      assertThat(e.reader().getVectorSchemaRoot().getSchema()).isEqualTo(planned);
    }
    assertThat(planned.getFields())
        .extracting(f -> f.getName())
        .containsExactly("l_orderkey", "revenue", "o_orderdate", "o_shippriority");
  }

  @Test
  void plan_isShared_byTextsThatDifferOnlyInCommentsAndSpacing_notByALiteral() throws Exception {
    // GIVEN TPC-H Q6 planned once
    String q6 = TpchQueries.lake(TpchQueries.Q6);
    AdmittedQuery first = admit(q6);
    SnapshotSet s = catalogs.resolveAll(ALICE, first);
    Schema planned = engine.plan(first, s);

    // WHEN a never-seen text of the same statement (a BI tool's comment, other spacing) is planned,
    // and a text with one more row of LIMIT
    AdmittedQuery commented = admit("/* dashboard 7, run 42 */\n  " + q6.replace(" ", "  "));
    AdmittedQuery literal = admit(q6.strip() + " LIMIT 1000000007");
    Schema again = engine.plan(commented, catalogs.resolveAll(ALICE, commented));
    Schema other = engine.plan(literal, catalogs.resolveAll(ALICE, literal));

    // THEN the commented text reuses the plan (its schema instance), the literal builds its own,
    // and each runs to the same answer
    assertThat(again).isSameAs(planned);
    assertThat(other).isEqualTo(planned).isNotSameAs(planned);
    assertThat(run(commented.sql())).isEqualTo(run(q6)).isEqualTo(run(literal.sql()));
  }

  @Test
  void tpchQueries_equalDuckDbOverNativeTables() throws Exception {
    // GIVEN the same data loaded into native DuckDB tables
    Map<String, ArrowReader> tables = new LinkedHashMap<>();
    LanceTableReader reader = new LanceTableReader(allocator);
    for (String t : List.of("lineitem", "orders", "customer")) {
      TableRef ref = TableRef.parse("lake.tpch." + t);
      tables.put(
          t,
          reader
              .scan(ref, resolver.resolve(ref), dev.lake.core.ScanRequest.all(8192), allocator)
              .get(0));
    }
    try (DuckDBConnection nat = EngineTestSupport.nativeDuckDb(tables, allocator)) {
      for (String q : List.of(TpchQueries.Q1, TpchQueries.Q3, TpchQueries.Q6)) {
        // WHEN the query runs through the engine and natively
        List<List<String>> expected = nativeRows(nat, TpchQueries.local(q), allocator);
        List<List<String>> actual = run(TpchQueries.lake(q));
        // THEN every row is equal
        assertThat(actual).as(q).isEqualTo(expected).isNotEmpty();
      }
    }
  }

  @Test
  void execute_readsOneTableTwice_inASelfJoin() throws Exception {
    // GIVEN a statement that scans the same table twice (and the plan() that precedes it)
    AdmittedQuery q =
        admit(
            "SELECT count(*) FROM lake.tpch.nation a JOIN lake.tpch.nation b"
                + " ON a.n_regionkey = b.n_regionkey");
    SnapshotSet s = catalogs.resolveAll(ALICE, q);
    engine.plan(q, s);
    // WHEN it runs
    List<List<String>> rows = rows(engine.execute(q, List.of(), s, allocator));
    // THEN each scan got its own input: 5 regions x 5 nations x 5 nations
    assertThat(rows).containsExactly(List.of("125"));
  }

  @Test
  void execute_bindsPositionalParameters() throws Exception {
    List<List<String>> rows =
        run(
            "SELECT count(*) FROM lake.tpch.lineitem WHERE l_quantity < ? AND l_shipdate >= ?"
                + " AND l_returnflag = ?",
            new BigDecimal("10"),
            LocalDate.of(1995, 1, 1),
            "N");
    assertThat(Long.parseLong(rows.get(0).get(0))).isPositive();
  }

  @Test
  void execute_readsTheSealedVersion_afterAnAppend_andFailsClosedWhenItIsGone() throws Exception {
    // GIVEN a sealed snapshot of a 2-row table
    String location = writeTable("pinned", "SELECT range AS x FROM range(2)", false);
    AdmittedQuery q = admit("SELECT count(*), sum(x) FROM lake.t.pinned");
    SnapshotSet sealed = catalogs.resolveAll(ALICE, q);
    // WHEN rows are appended after sealing
    writeTable("pinned", "SELECT range + 100 AS x FROM range(3)", true);
    // THEN the sealed snapshot still reads the old rows, a fresh one the new rows
    assertThat(rows(engine.execute(q, List.of(), sealed, allocator)))
        .containsExactly(List.of("2", "1"));
    assertThat(rows(engine.execute(q, List.of(), catalogs.resolveAll(ALICE, q), allocator)))
        .containsExactly(List.of("5", "304"));
    // WHEN the sealed version is removed THEN execution fails closed, never falls forward
    LanceDatasets.removeVersion(location, 1);
    assertThatThrownBy(() -> engine.execute(q, List.of(), sealed, allocator))
        .isInstanceOfSatisfying(
            LakeException.class, e -> assertThat(e.code()).isEqualTo(ErrorCode.SNAPSHOT_GONE))
        .hasMessage("version 1 of lake.t.pinned is no longer available");
  }

  @Test
  void verify_failsClosed_whenTheTableIsReRegistered() throws Exception {
    // GIVEN a sealed snapshot
    String location = writeTable("reborn", "SELECT 1 AS x", false);
    TableRef ref = TableRef.parse("lake.t.reborn");
    AdmittedQuery q = admit("SELECT * FROM lake.t.reborn");
    SnapshotSet sealed = catalogs.resolveAll(ALICE, q);
    catalogs.verifyAll(ALICE, sealed);
    // WHEN the name is unregistered and registered again (a new incarnation)
    registry.unregister(ref);
    LanceFormat.register(registry, ref, location);
    // THEN the old snapshot no longer verifies
    assertThatThrownBy(() -> catalogs.verifyAll(ALICE, sealed))
        .isInstanceOfSatisfying(
            LakeException.class, e -> assertThat(e.code()).isEqualTo(ErrorCode.SNAPSHOT_GONE))
        .hasMessage(
            "version 1 of lake.t.reborn is no longer available: the table was replaced or"
                + " removed");
  }

  @Test
  void cancel_stopsALongRunningQuery() throws Exception {
    // GIVEN a query that runs for minutes, on an engine whose reader counts the bytes DuckDB pulls
    AtomicLong pulledBytes = new AtomicLong();
    TableReader lance = new LanceTableReader(allocator);
    TableReader counting =
        new TableReader() {
          @Override
          public boolean supports(Snapshot snapshot) {
            return lance.supports(snapshot);
          }

          @Override
          public Schema schema(TableRef ref, Snapshot snapshot) {
            return lance.schema(ref, snapshot);
          }

          @Override
          public List<ArrowReader> scan(
              TableRef ref, Snapshot snapshot, ScanRequest request, BufferAllocator a) {
            return lance.scan(ref, snapshot, request, a).stream()
                .map(r -> (ArrowReader) new CountingReader(a, r, pulledBytes, Long.MAX_VALUE))
                .toList();
          }
        };
    try (DuckDbQueryEngine slow =
        new DuckDbQueryEngine(
            new EngineConfig(512L << 20, 2, dir.resolve("spill-cancel"), 1L << 30, 4096, 2),
            List.of(counting))) {
      AdmittedQuery q =
          admit(
              "SELECT sum(r.range * l.l_quantity) FROM range(2000000) r, lake.tpch.lineitem l"
                  + " WHERE r.range % 7 <> l.l_linenumber");
      QueryExecution e = slow.execute(q, List.of(), catalogs.resolveAll(ALICE, q), allocator);
      CompletableFuture<Throwable> pulled =
          CompletableFuture.supplyAsync(
              () -> {
                try {
                  e.reader().loadNextBatch();
                  return null;
                } catch (Throwable t) {
                  return t;
                }
              });
      // AND it has provably started: DuckDB is pulling table data (polled with a deadline)
      long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
      while (pulledBytes.get() == 0 && !pulled.isDone() && System.nanoTime() < deadline) {
        LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(5));
      }
      assertThat(pulledBytes.get()).as("bytes DuckDB pulled before the cancel").isPositive();
      assertThat(pulled).as("the query is still running").isNotDone();
      // WHEN it is cancelled from another thread
      long start = System.nanoTime();
      e.cancel();
      Throwable t = pulled.get(20, TimeUnit.SECONDS);
      // THEN the pull fails as CANCELLED promptly, and closing frees everything
      assertThat(TimeUnit.NANOSECONDS.toSeconds(System.nanoTime() - start)).isLessThan(10);
      assertThat(t)
          .isInstanceOfSatisfying(
              LakeException.class, x -> assertThat(x.code()).isEqualTo(ErrorCode.CANCELLED));
      e.close();
    }
  }

  @Test
  void failedQuery_doesNotPoisonTheEngine() throws Exception {
    // GIVEN a query that fails at runtime
    assertThatThrownBy(() -> run("SELECT CAST(l_comment AS INTEGER) FROM lake.tpch.lineitem"))
        .isInstanceOfSatisfying(
            LakeException.class, e -> assertThat(e.code()).isEqualTo(ErrorCode.QUERY_FAILED));
    assertThatThrownBy(() -> run("SELECT no_such_column FROM lake.tpch.nation"))
        .isInstanceOfSatisfying(
            LakeException.class, e -> assertThat(e.code()).isEqualTo(ErrorCode.QUERY_FAILED))
        .hasMessageContaining("no_such_column");
    // THEN the next query works
    assertThat(run("SELECT count(*) FROM lake.tpch.nation")).containsExactly(List.of("25"));
  }

  @Test
  void explain_runsOverTheViews() throws Exception {
    List<List<String>> rows = run("EXPLAIN SELECT count(*) FROM lake.tpch.region");
    assertThat(rows).isNotEmpty();
    assertThat(rows.get(0)).hasSize(2);
  }

  @Test
  void engine_keepsTheBuildProbeSwap_soJoinsHashTheirSmallerInput() throws Exception {
    // GIVEN the engine's DuckDB WHEN its optimizer settings are read THEN no optimizer is off
    // (without the swap TPC-H Q5 hashed all of lineitem: 2.6-2.9x Parquet; bench.md)
    try (DuckDBConnection c = engine.connectionForTest();
        java.sql.ResultSet rs =
            c.createStatement().executeQuery("SELECT current_setting('disabled_optimizers')")) {
      assertThat(rs.next()).isTrue();
      assertThat(rs.getString(1)).isEmpty();
    }
  }

  @Test
  void engine_isHardened_settingsLocked_andNoExternalAccess() throws Exception {
    try (DuckDBConnection c = engine.connectionForTest()) {
      assertThatThrownBy(() -> c.createStatement().execute("SET threads = 1"))
          .isInstanceOf(SQLException.class)
          .hasMessageContaining("lock");
      assertThatThrownBy(() -> c.createStatement().execute("SET enable_external_access = true"))
          .isInstanceOf(SQLException.class);
      assertThatThrownBy(
              () -> c.createStatement().executeQuery("SELECT * FROM read_csv('/etc/hostname')"))
          .isInstanceOf(SQLException.class)
          .hasMessageContaining("disabled");
    }
  }

  @Test
  void scan_splitsIntoParallelStreams_andStillReadsEveryRowOnce() throws Exception {
    // GIVEN lineitem as several fragments (written with small files)
    String location = dir.resolve("t").resolve("frag.lance").toString();
    TableRef src = TableRef.parse("lake.tpch.lineitem");
    ArrowReader all =
        new LanceTableReader(allocator)
            .scan(src, resolver.resolve(src), dev.lake.core.ScanRequest.all(4096), allocator)
            .get(0);
    LanceDatasets.write(location, all, allocator, false, 10_000);
    LanceFormat.register(registry, TableRef.parse("lake.t.frag"), location);
    // WHEN read with parallelism 2 THEN the answer equals the single-fragment table's
    assertThat(run("SELECT count(*), sum(l_quantity), min(l_orderkey) FROM lake.t.frag"))
        .isEqualTo(
            run("SELECT count(*), sum(l_quantity), min(l_orderkey) FROM lake.tpch.lineitem"));
  }
}
