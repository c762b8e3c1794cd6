package dev.lake.engine;

import static dev.lake.engine.EngineTestSupport.rows;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.lake.core.AdmittedQuery;
import dev.lake.core.Catalogs;
import dev.lake.core.ErrorCode;
import dev.lake.core.LakeException;
import dev.lake.core.Principal;
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
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.ipc.ArrowReader;
import org.duckdb.DuckDBConnection;
import org.duckdb.DuckDBResultSet;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class SnapshotCacheTest {
  @TempDir static Path dir;

  static RootAllocator allocator;
  static FileRegistry registry;
  static LanceTableReader reader;
  static DuckDbQueryEngine uncached;
  static DuckDbSqlAdmission admission;
  static Catalogs catalogs;
  static final Principal ALICE = Principal.of("t1", "alice", Set.of("lake.tpch", "lake.t"));

  @BeforeAll
  static void setUp() {
    allocator = new RootAllocator();
    registry = new FileRegistry(dir.resolve("registry.json"));
    TpchDemo.generate(dir.resolve("data"), 0.01, registry, allocator);
    reader = new LanceTableReader(allocator);
    uncached = new DuckDbQueryEngine(config(0), List.of(reader));
    admission = new DuckDbSqlAdmission();
    catalogs = new Catalogs(List.of(new LanceTableResolver(registry, allocator, Duration.ZERO)));
  }

  @AfterAll
  static void tearDown() {
    uncached.close();
    admission.close();
    reader.close();
    allocator.close();
  }

  @AfterEach
  void noLeaks() {
    assertThat(allocator.getAllocatedMemory()).isZero();
  }

  private static EngineConfig config(long cacheBytes) {
    return new EngineConfig(512L << 20, 2, dir.resolve("spill"), 1L << 30, 4096, 2, cacheBytes);
  }

  static List<List<String>> run(DuckDbQueryEngine engine, String sql) throws Exception {
    AdmittedQuery q = admission.admit(sql);
    SnapshotSet s = catalogs.resolveAll(ALICE, q);
    return rows(engine.execute(q, List.of(), s, allocator));
  }

  /**
   * Runs {@code sql} twice (a snapshot is copied in the background on its second uncached read) and
   * waits for the copies; returns the rows of the second run.
   */
  static List<List<String>> warm(DuckDbQueryEngine engine, String sql) throws Exception {
    run(engine, sql);
    List<List<String>> rows = run(engine, sql);
    engine.snapshotCacheForTest().awaitFillsForTest(Duration.ofSeconds(60));
    return rows;
  }

  @Test
  void cacheHit_returnsTheRowsOfTheUncachedPath() throws Exception {
    // GIVEN an engine with the snapshot cache on
    try (DuckDbQueryEngine cached = new DuckDbQueryEngine(config(64L << 20), List.of(reader))) {
      List<String> queries = new ArrayList<>(TpchQueries.P3.values());
      queries.add("SELECT * FROM {nation} ORDER BY n_nationkey");
      SnapshotCache cache = cached.snapshotCacheForTest();
      for (String q : queries) {
        String sql = TpchQueries.lake(q);
        List<List<String>> expected = run(uncached, sql);
        // WHEN the query runs twice (read uncached, copied in the background) and then again
        List<List<String>> uncachedRun = warm(cached, sql);
        long materialized = cache.materializations();
        long hits = cache.hits();
        List<List<String>> cachedRun = run(cached, sql);
        cache.awaitFillsForTest(Duration.ofSeconds(60));
        // THEN every run equals the uncached answer and the last one read only cached copies
        assertThat(uncachedRun).as(q).isEqualTo(expected).isNotEmpty();
        assertThat(cachedRun).as(q).isEqualTo(expected);
        assertThat(cache.materializations()).as(q).isEqualTo(materialized);
        assertThat(cache.hits() - hits).as(q).isEqualTo(admission.admit(sql).tables().size());
      }
      assertThat(cache.materializations()).isPositive();
    }
  }

  @Test
  void plan_equalsTheSchemaACachedExecutionStreams() throws Exception {
    try (DuckDbQueryEngine cached = new DuckDbQueryEngine(config(64L << 20), List.of(reader))) {
      AdmittedQuery q = admission.admit(TpchQueries.lake(TpchQueries.Q3));
      SnapshotSet s = catalogs.resolveAll(ALICE, q);
      warm(cached, TpchQueries.lake(TpchQueries.Q3)); // copied
      try (QueryExecution e = cached.execute(q, List.of(), s, allocator)) {
        assertThat(e.reader().getVectorSchemaRoot().getSchema())
            .isEqualTo(cached.plan(q, s))
            .isEqualTo(uncached.plan(q, s));
      }
    }
  }

  @Test
  void removedVersion_afterCaching_failsClosedAndEvicts() throws Exception {
    // GIVEN a sealed snapshot whose rows are cached
    String location = writeTable("gone", "SELECT range AS x FROM range(3)");
    try (DuckDbQueryEngine cached = new DuckDbQueryEngine(config(64L << 20), List.of(reader))) {
      AdmittedQuery q = admission.admit("SELECT sum(x) FROM lake.t.gone");
      SnapshotSet sealed = catalogs.resolveAll(ALICE, q);
      assertThat(warm(cached, "SELECT sum(x) FROM lake.t.gone")).containsExactly(List.of("3"));
      assertThat(cached.snapshotCacheForTest().cachedBytes()).isPositive();
      // WHEN the sealed version is removed from the dataset
      LanceDatasets.removeVersion(location, 1);
      // THEN the cached copy is not used: SNAPSHOT_GONE exactly as uncached, and it is evicted
      for (DuckDbQueryEngine engine : List.of(cached, uncached)) {
        assertThatThrownBy(() -> engine.execute(q, List.of(), sealed, allocator))
            .isInstanceOfSatisfying(
                LakeException.class, e -> assertThat(e.code()).isEqualTo(ErrorCode.SNAPSHOT_GONE))
            .hasMessage("version 1 of lake.t.gone is no longer available");
      }
      assertThat(cached.snapshotCacheForTest().cachedBytes()).isZero();
    }
  }

  @Test
  void eviction_keepsCachedBytesUnderTheBound_andOversizedSnapshotsReadUncached() throws Exception {
    // GIVEN a cache of 256 KiB
    long bound = 256L << 10;
    try (DuckDbQueryEngine cached = new DuckDbQueryEngine(config(bound), List.of(reader))) {
      SnapshotCache cache = cached.snapshotCacheForTest();
      // WHEN queries touch more distinct projections than fit
      for (String sql :
          List.of(
              "SELECT sum(o_totalprice) FROM lake.tpch.orders",
              "SELECT sum(c_acctbal) FROM lake.tpch.customer",
              "SELECT max(o_orderdate) FROM lake.tpch.orders",
              "SELECT max(ps_supplycost) FROM lake.tpch.partsupp",
              "SELECT count(*), max(n_name) FROM lake.tpch.nation",
              "SELECT max(o_orderdate), sum(o_totalprice) FROM lake.tpch.orders")) {
        // THEN every answer is right and the cache never holds more than the bound
        assertThat(warm(cached, sql)).as(sql).isEqualTo(run(uncached, sql));
        assertThat(run(cached, sql)).as(sql).isEqualTo(run(uncached, sql));
        assertThat(cache.cachedBytes()).as(sql).isLessThanOrEqualTo(bound);
      }
      // (the last projection, ~300 KB, is itself too large: its copy stopped, having evicted the
      // others to reserve room while it ran)
      assertThat(cache.materializations()).isGreaterThanOrEqualTo(5);
      // WHEN one projection alone is larger than the bound
      long before = cache.materializations();
      String big = "SELECT count(*), max(l_comment) FROM lake.tpch.lineitem";
      // THEN it is answered uncached, its copy stops, and it is not retried on later runs
      assertThat(warm(cached, big)).isEqualTo(run(uncached, big));
      assertThat(warm(cached, big)).isEqualTo(run(uncached, big));
      assertThat(cache.materializations()).isEqualTo(before);
      assertThat(cache.cachedBytes()).isLessThanOrEqualTo(bound);
      assertThat(cache.reservedBytes()).isZero();
    }
  }

  @Test
  void differentProjections_ofOneSnapshot_convergeToOneWiderCopy() throws Exception {
    try (DuckDbQueryEngine cached = new DuckDbQueryEngine(config(64L << 20), List.of(reader))) {
      SnapshotCache cache = cached.snapshotCacheForTest();
      String a = "SELECT sum(o_totalprice) FROM lake.tpch.orders";
      String b = "SELECT max(o_orderdate) FROM lake.tpch.orders";
      // GIVEN one projection cached
      warm(cached, a);
      long one = cache.cachedBytes();
      // WHEN another projection of the same snapshot is read (a later use of the snapshot)
      assertThat(run(cached, b)).isEqualTo(run(uncached, b));
      cache.awaitFillsForTest(Duration.ofSeconds(60));
      // THEN one copy holds both (the narrower copy is gone) and serves both without new copies
      assertThat(cache.materializations()).isEqualTo(2);
      assertThat(cache.entriesForTest()).hasSize(1);
      assertThat(cache.cachedBytes()).isGreaterThan(one);
      assertThat(run(cached, a)).isEqualTo(run(uncached, a));
      assertThat(run(cached, b)).isEqualTo(run(uncached, b));
      assertThat(cache.materializations()).isEqualTo(2);
    }
  }

  @Test
  void explain_doesNotMaterialize() throws Exception {
    try (DuckDbQueryEngine cached = new DuckDbQueryEngine(config(64L << 20), List.of(reader))) {
      assertThat(warm(cached, "EXPLAIN SELECT count(*) FROM lake.tpch.orders")).isNotEmpty();
      assertThat(warm(cached, "EXPLAIN SELECT count(*) FROM lake.tpch.orders")).isNotEmpty();
      assertThat(cached.snapshotCacheForTest().materializations()).isZero();
    }
  }

  @Test
  void cachedCopies_cannotBeNamedByClients() throws Exception {
    // GIVEN a cached copy
    try (DuckDbQueryEngine cached = new DuckDbQueryEngine(config(64L << 20), List.of(reader))) {
      warm(cached, "SELECT count(*) FROM lake.tpch.region");
      String name = cached.snapshotCacheForTest().entriesForTest().size() == 1 ? "lake_c1" : "";
      // WHEN a client names it THEN admission refuses (internal catalog / not fully qualified)
      assertThatThrownBy(() -> admission.admit("SELECT * FROM memory.lake_cache." + name))
          .isInstanceOfSatisfying(
              LakeException.class, e -> assertThat(e.code()).isEqualTo(ErrorCode.SQL_NOT_ALLOWED));
      assertThatThrownBy(() -> admission.admit("SELECT * FROM lake_cache." + name))
          .isInstanceOfSatisfying(
              LakeException.class, e -> assertThat(e.code()).isEqualTo(ErrorCode.SQL_NOT_ALLOWED));
    }
  }

  @Test
  void concurrentUses_neverWait_andQueueOneCopy() throws Exception {
    // GIVEN a cold cache and four callers of the same query
    ExecutorService pool = Executors.newFixedThreadPool(4);
    try (DuckDbQueryEngine cached = new DuckDbQueryEngine(config(64L << 20), List.of(reader))) {
      String sql = TpchQueries.lake(TpchQueries.Q6);
      List<List<String>> expected = run(uncached, sql);
      CountDownLatch start = new CountDownLatch(1);
      List<CompletableFuture<List<List<String>>>> runs = new ArrayList<>();
      for (int i = 0; i < 4; i++) {
        runs.add(
            CompletableFuture.supplyAsync(
                () -> {
                  try {
                    start.await();
                    return run(cached, sql);
                  } catch (Exception e) {
                    throw new IllegalStateException(e);
                  }
                },
                pool));
      }
      // WHEN they start together
      start.countDown();
      // THEN all get the same rows and the snapshot is copied once
      for (CompletableFuture<List<List<String>>> r : runs) {
        assertThat(r.get(60, TimeUnit.SECONDS)).isEqualTo(expected);
      }
      cached.snapshotCacheForTest().awaitFillsForTest(Duration.ofSeconds(60));
      assertThat(cached.snapshotCacheForTest().materializations()).isEqualTo(1);
      assertThat(run(cached, sql)).isEqualTo(expected);
      assertThat(cached.snapshotCacheForTest().materializations()).isEqualTo(1);
    } finally {
      pool.shutdownNow();
    }
  }

  /** Writes rows produced by a native DuckDB query as a Lance dataset and registers it. */
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

  @Test
  void widerCopy_thatDoesNotFitBesideTheNarrowerOne_leavesTheNarrowerCopyInPlace()
      throws Exception {
    // GIVEN a 512 KiB cache holding one projection of orders (~240 KB)
    try (DuckDbQueryEngine cached = new DuckDbQueryEngine(config(512L << 10), List.of(reader))) {
      SnapshotCache cache = cached.snapshotCacheForTest();
      String narrow = "SELECT sum(o_totalprice) FROM lake.tpch.orders";
      warm(cached, narrow);
      Set<SnapshotCache.Key> held = cache.entriesForTest();
      assertThat(held).hasSize(1);
      // WHEN a wider projection of the same snapshot (~1 MB with o_comment) is read twice
      String wide = "SELECT max(o_comment), sum(o_totalprice) FROM lake.tpch.orders";
      assertThat(warm(cached, wide)).isEqualTo(run(uncached, wide));
      // THEN its copy stopped without evicting the narrower copy, which still answers
      assertThat(cache.entriesForTest()).isEqualTo(held);
      long hits = cache.hits();
      assertThat(run(cached, narrow)).isEqualTo(run(uncached, narrow));
      assertThat(cache.hits()).isEqualTo(hits + 1);
      assertThat(cache.reservedBytes()).isZero();
    }
  }

  // the cache budget shared by the memory pools (CacheBudget)
  static final long BUDGET = 2L << 20;
  // ~1.4 MB of Arrow: more than a pool's share (1 MiB), less than the whole budget
  static final String WIDE =
      "SELECT sum(o_totalprice), max(o_orderdate), max(o_clerk), max(o_comment)"
          + " FROM lake.tpch.orders";
  // ~0.97 MB: within a pool's share, more than what the wide copy leaves of the budget
  static final String NARROW = "SELECT sum(l_extendedprice) FROM lake.tpch.lineitem";

  private static DuckDbQueryEngine twoPools() {
    EngineConfig config =
        new EngineConfig(512L << 20, 2, dir.resolve("spill"), 1L << 30, 4096, 2, BUDGET)
            .withMemoryPools(2);
    return new DuckDbQueryEngine(config, List.of(reader));
  }

  private static List<List<String>> run(DuckDbQueryEngine engine, String tenant, String sql)
      throws Exception {
    AdmittedQuery q = admission.admit(sql);
    SnapshotSet s = catalogs.resolveAll(ALICE, q);
    return rows(engine.execute(tenant, q, List.of(), s, allocator, Duration.ofMinutes(1)));
  }

  /** Two reads (the second queues the copy), then waits for the copies of every pool. */
  private static void warm(DuckDbQueryEngine engine, String tenant, String sql) throws Exception {
    run(engine, tenant, sql);
    run(engine, tenant, sql);
    for (int i = 0; i < engine.poolsForTest().size(); i++) {
      cache(engine, i).awaitFillsForTest(Duration.ofSeconds(60));
    }
  }

  private static SnapshotCache cache(DuckDbQueryEngine engine, int pool) {
    return engine.poolsForTest().pool(pool).snapshotCache();
  }

  @Test
  void tenantAlone_cachesBeyondItsPoolsShare_upToTheWholeBudget() throws Exception {
    try (DuckDbQueryEngine engine = twoPools()) {
      // GIVEN two pools sharing a 2 MiB cache budget (1 MiB guaranteed each), one tenant
      // WHEN it reads a projection larger than its pool's share twice
      warm(engine, "a", WIDE);
      // THEN the copy is made in its pool (pool 0) and later reads hit it
      long held = cache(engine, 0).cachedBytes();
      assertThat(held).isGreaterThan(BUDGET / 2).isLessThanOrEqualTo(BUDGET);
      long hits = cache(engine, 0).hits();
      run(engine, "a", WIDE);
      assertThat(cache(engine, 0).hits()).isEqualTo(hits + 1);
    }
  }

  @Test
  void anotherTenant_reclaimsItsShare_fromABorrowingPool() throws Exception {
    try (DuckDbQueryEngine engine = twoPools()) {
      // GIVEN tenant a's pool borrowing beyond its share
      warm(engine, "a", WIDE);
      assertThat(cache(engine, 0).cachedBytes()).isGreaterThan(BUDGET / 2);
      List<List<String>> wide = run(engine, "a", WIDE);
      // WHEN tenant b (the other pool) fills its own share
      warm(engine, "b", NARROW);
      // THEN b's copy is kept, a's pool shrank to make room, both pools stay within the budget
      long b = cache(engine, 1).cachedBytes();
      long a = cache(engine, 0).cachedBytes();
      assertThat(b).isGreaterThan(BUDGET / 4).isLessThanOrEqualTo(BUDGET / 2);
      assertThat(a + b).isLessThanOrEqualTo(BUDGET);
      assertThat(cache(engine, 0).entriesForTest()).isEmpty();
      long hits = cache(engine, 1).hits();
      assertThat(run(engine, "b", NARROW)).hasSize(1);
      assertThat(cache(engine, 1).hits()).isEqualTo(hits + 1);
      // WHEN tenant a reads its projection again (uncached: its copy no longer fits its room)
      assertThat(run(engine, "a", WIDE)).isEqualTo(wide);
      warm(engine, "a", WIDE);
      long copies = cache(engine, 0).materializations();
      warm(engine, "a", WIDE);
      // THEN its copy attempt stopped without taking b's share, and is not retried while the room
      // is the same
      assertThat(cache(engine, 1).entriesForTest()).hasSize(1);
      assertThat(cache(engine, 0).cachedBytes() + cache(engine, 1).cachedBytes())
          .isLessThanOrEqualTo(BUDGET);
      assertThat(cache(engine, 0).materializations()).isEqualTo(copies);
      assertThat(cache(engine, 0).reservedBytes() + cache(engine, 1).reservedBytes()).isZero();
    }
  }
}
