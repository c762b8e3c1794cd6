package dev.lake.engine;

import static dev.lake.engine.EngineTestSupport.rows;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.lake.core.AdmittedQuery;
import dev.lake.core.Catalogs;
import dev.lake.core.ErrorCode;
import dev.lake.core.ForwardingQueryEngine;
import dev.lake.core.LakeException;
import dev.lake.core.Principal;
import dev.lake.core.QueryEngine;
import dev.lake.core.QueryExecution;
import dev.lake.core.SnapshotSet;
import dev.lake.core.TableRef;
import dev.lake.core.local.FileRegistry;
import dev.lake.lance.LanceDatasets;
import dev.lake.lance.LanceFormat;
import dev.lake.lance.LanceTableReader;
import dev.lake.lance.LanceTableResolver;
import dev.lake.lance.demo.TpchDemo;
import java.nio.file.Path;
import java.sql.Statement;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.ipc.ArrowReader;
import org.duckdb.DuckDBConnection;
import org.duckdb.DuckDBResultSet;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ReusingQueryEngineTest {
  @TempDir static Path dir;

  static RootAllocator allocator;
  static FileRegistry registry;
  static LanceTableReader reader;
  static DuckDbQueryEngine engine;
  static DuckDbSqlAdmission admission;
  static Catalogs catalogs;
  static final Principal ALICE = Principal.of("t1", "alice", Set.of("lake.tpch", "lake.t"));

  @BeforeAll
  static void setUp() {
    allocator = new RootAllocator();
    registry = new FileRegistry(dir.resolve("registry.json"));
    TpchDemo.generate(dir.resolve("data"), 0.01, registry, allocator);
    reader = new LanceTableReader(allocator);
    engine =
        new DuckDbQueryEngine(
            new EngineConfig(512L << 20, 2, dir.resolve("spill"), 1L << 30, 4096, 2, 0),
            List.of(reader));
    admission = new DuckDbSqlAdmission();
    catalogs = new Catalogs(List.of(new LanceTableResolver(registry, allocator, Duration.ZERO)));
  }

  @AfterAll
  static void tearDown() {
    engine.close();
    admission.close();
    reader.close();
    allocator.close();
  }

  @AfterEach
  void noLeaks() {
    assertThat(allocator.getAllocatedMemory()).isZero();
  }

  /** Our own port, counted: how many statements reached the real engine. */
  static final class Counting extends ForwardingQueryEngine {
    final AtomicInteger executions = new AtomicInteger();

    @Override
    protected QueryEngine delegate() {
      return engine;
    }

    /** Every tenant's statements are counted here (the engine's default pool runs them). */
    @Override
    public QueryEngine forTenant(String tenant) {
      return this;
    }

    @Override
    public QueryExecution execute(
        AdmittedQuery query, List<Object> parameters, SnapshotSet s, BufferAllocator a) {
      executions.incrementAndGet();
      return engine.execute(query, parameters, s, a);
    }

    @Override
    public QueryExecution execute(
        AdmittedQuery query,
        List<Object> parameters,
        SnapshotSet s,
        BufferAllocator a,
        java.time.Duration timeout) {
      executions.incrementAndGet();
      return engine.execute(query, parameters, s, a, timeout);
    }

    @Override
    public void close() {
      // the shared engine closes after all tests
    }
  }

  private static List<List<String>> run(QueryEngine e, String sql, List<Object> params)
      throws Exception {
    AdmittedQuery q = admission.admit(sql);
    SnapshotSet s = catalogs.resolveAll(ALICE, q);
    return rows(e.execute(q, params, s, allocator));
  }

  @Test
  void executeWithAClientDeadline_isAnsweredFromTheStoredResult_throughATenantView()
      throws Exception {
    // GIVEN result reuse in front of the engine, and a client that sends x-lake-timeout-ms
    Counting counting = new Counting();
    try (ReusingQueryEngine reusing =
        new ReusingQueryEngine(counting, List.of(reader), ResultReuseConfig.defaults())) {
      String sql = TpchQueries.lake("SELECT * FROM {nation}");
      AdmittedQuery q = admission.admit(sql);
      SnapshotSet s = catalogs.resolveAll(ALICE, q);
      java.time.Duration deadline = java.time.Duration.ofSeconds(30);
      // WHEN the statement runs twice with the explicit deadline, as two tenants' views
      List<List<String>> first =
          rows(reusing.forTenant("t1").execute(q, List.of(), s, allocator, deadline));
      List<List<String>> second =
          rows(reusing.forTenant("t2").execute(q, List.of(), s, allocator, deadline));
      // THEN the second run replayed the first one's result: one execution, one hit, and the
      // tenant views report the same cache figures as the engine
      assertThat(second).isEqualTo(first).isNotEmpty();
      assertThat(counting.executions.get()).isEqualTo(1);
      assertThat(reusing.forTenant("t1").cacheStats()).isEqualTo(reusing.cacheStats());
      assertThat(reusing.cacheStats().resultHits()).isEqualTo(1);
    }
  }

  @Test
  void deterministicSelect_atTheSameSnapshots_isAnsweredFromTheStoredResult() throws Exception {
    // GIVEN result reuse in front of the engine
    Counting counting = new Counting();
    try (ReusingQueryEngine reusing =
        new ReusingQueryEngine(counting, List.of(reader), ResultReuseConfig.defaults())) {
      for (String q : List.of(TpchQueries.Q1, TpchQueries.P3.get("Q5"), "SELECT * FROM {nation}")) {
        String sql = TpchQueries.lake(q);
        List<List<String>> expected = run(engine, sql, List.of());
        int before = counting.executions.get();
        // WHEN the statement runs twice
        List<List<String>> first = run(reusing, sql, List.of());
        List<List<String>> second = run(reusing, sql, List.of());
        // THEN both runs equal the engine's answer, and only the first one executed
        assertThat(first).as(q).isEqualTo(expected).isNotEmpty();
        assertThat(second).as(q).isEqualTo(expected);
        assertThat(counting.executions.get() - before).as(q).isEqualTo(1);
      }
      assertThat(reusing.storedBytes()).isPositive();
      // AND the meters' figures count one replay per statement and the bytes held
      assertThat(reusing.cacheStats().resultHits()).isEqualTo(3);
      assertThat(reusing.cacheStats().resultBytes()).isEqualTo(reusing.storedBytes());
    }
  }

  @Test
  void nonDeterministicStatements_alwaysExecute() throws Exception {
    Counting counting = new Counting();
    try (ReusingQueryEngine reusing =
        new ReusingQueryEngine(counting, List.of(reader), ResultReuseConfig.defaults())) {
      for (String sql :
          List.of(
              "SELECT n_nationkey, random() AS r FROM lake.tpch.nation",
              "SELECT n_nationkey, now() AS t FROM lake.tpch.nation",
              "SELECT n_nationkey, current_timestamp AS t FROM lake.tpch.nation",
              "SELECT n_nationkey, current_date AS d FROM lake.tpch.nation",
              "SELECT n_nationkey, uuid() AS u FROM lake.tpch.nation",
              "SELECT n_nationkey FROM lake.tpch.nation ORDER BY random() LIMIT 3",
              "SELECT * FROM lake.tpch.nation USING SAMPLE 50 PERCENT (bernoulli)")) {
        int before = counting.executions.get();
        // WHEN each runs twice
        run(reusing, sql, List.of());
        run(reusing, sql, List.of());
        // THEN both runs executed
        assertThat(counting.executions.get() - before).as(sql).isEqualTo(2);
      }
      assertThat(reusing.storedBytes()).isZero();
    }
  }

  @Test
  void boundParameters_arePartOfTheKey() throws Exception {
    Counting counting = new Counting();
    try (ReusingQueryEngine reusing =
        new ReusingQueryEngine(counting, List.of(reader), ResultReuseConfig.defaults())) {
      String sql = "SELECT n_name FROM lake.tpch.nation WHERE n_nationkey = ?";
      // WHEN the statement runs with 1, 2, then 1 again
      List<List<String>> one = run(reusing, sql, List.of(1L));
      List<List<String>> two = run(reusing, sql, List.of(2L));
      List<List<String>> oneAgain = run(reusing, sql, List.of(1L));
      // THEN different parameters executed separately; the repeat was reused
      assertThat(one).containsExactly(List.of("ARGENTINA"));
      assertThat(two).containsExactly(List.of("BRAZIL"));
      assertThat(oneAgain).isEqualTo(one);
      assertThat(counting.executions.get()).isEqualTo(2);
    }
  }

  @Test
  void removedVersion_afterStoring_failsClosedLikeAFreshRun() throws Exception {
    // GIVEN a stored result of a sealed Lance version
    String location = writeTable("gone", "SELECT range AS x FROM range(3)");
    try (ReusingQueryEngine reusing =
        new ReusingQueryEngine(new Counting(), List.of(reader), ResultReuseConfig.defaults())) {
      AdmittedQuery q = admission.admit("SELECT sum(x) FROM lake.t.gone");
      SnapshotSet sealed = catalogs.resolveAll(ALICE, q);
      assertThat(rows(reusing.execute(q, List.of(), sealed, allocator)))
          .containsExactly(List.of("3"));
      assertThat(reusing.storedBytes()).isPositive();
      // WHEN the version is removed
      LanceDatasets.removeVersion(location, 1);
      // THEN reuse fails closed with the uncached path's error
      assertThatThrownBy(() -> reusing.execute(q, List.of(), sealed, allocator))
          .isInstanceOfSatisfying(
              LakeException.class, e -> assertThat(e.code()).isEqualTo(ErrorCode.SNAPSHOT_GONE))
          .hasMessage("version 1 of lake.t.gone is no longer available");
      // AND a fresh query still works
      assertThat(run(reusing, "SELECT count(*) FROM lake.tpch.region", List.of()))
          .containsExactly(List.of("5"));
    }
  }

  @Test
  void resultsOverTheEntryBound_andCancelledRuns_areNotStored() throws Exception {
    Counting counting = new Counting();
    try (ReusingQueryEngine reusing =
        new ReusingQueryEngine(
            counting, List.of(reader), new ResultReuseConfig(1L << 20, 1L << 10))) {
      // WHEN a result larger than 1 KiB runs twice
      String big = "SELECT * FROM lake.tpch.orders";
      assertThat(run(reusing, big, List.of())).hasSize(15_000);
      run(reusing, big, List.of());
      // AND a small statement is cancelled before it is read
      AdmittedQuery q = admission.admit("SELECT count(*) FROM lake.tpch.region");
      SnapshotSet s = catalogs.resolveAll(ALICE, q);
      try (QueryExecution e = reusing.execute(q, List.of(), s, allocator)) {
        e.cancel();
        try {
          rows(e.reader());
        } catch (Exception expected) {
          // a cancelled statement may fail its pull; either way nothing is stored
        }
      }
      // THEN nothing was stored, and the next run of the cancelled statement executes
      assertThat(reusing.storedBytes()).isZero();
      int before = counting.executions.get();
      assertThat(rows(reusing.execute(q, List.of(), s, allocator))).containsExactly(List.of("5"));
      assertThat(counting.executions.get() - before).isEqualTo(1);
      assertThat(counting.executions.get()).isEqualTo(4);
    }
  }

  @Test
  void config_defaultsAndBounds() {
    assertThat(ResultReuseConfig.defaults()).isEqualTo(new ResultReuseConfig(64L << 20, 4L << 20));
    assertThat(ResultReuseConfig.off().enabled()).isFalse();
    assertThatThrownBy(() -> new ResultReuseConfig(1L << 20, 2L << 20))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("result reuse entry bytes must be between 1024 and 1048576: 2097152");
    assertThatThrownBy(() -> new ResultReuseConfig(-1, 0))
        .hasMessageStartingWith("result reuse bytes must be between 0 and");
  }

  private static String writeTable(String name, String duckSql) throws Exception {
    String location = dir.resolve("t").resolve(name + ".lance").toString();
    try (DuckDBConnection c =
            (DuckDBConnection) new org.duckdb.DuckDBDriver().connect("jdbc:duckdb:", null);
        Statement s = c.createStatement();
        DuckDBResultSet rs = (DuckDBResultSet) s.executeQuery(duckSql)) {
      ArrowReader r = (ArrowReader) rs.arrowExportStream(allocator, 1024);
      LanceDatasets.write(location, r, allocator, false);
    }
    LanceFormat.register(registry, TableRef.parse("lake.t." + name), location);
    return location;
  }
}
