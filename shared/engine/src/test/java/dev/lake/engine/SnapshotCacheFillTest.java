package dev.lake.engine;

import static dev.lake.engine.EngineTestSupport.rows;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.github.benmanes.caffeine.cache.Ticker;
import dev.lake.core.AdmittedQuery;
import dev.lake.core.Catalogs;
import dev.lake.core.Principal;
import dev.lake.core.ScanRequest;
import dev.lake.core.Snapshot;
import dev.lake.core.SnapshotProbe;
import dev.lake.core.TableReader;
import dev.lake.core.TableRef;
import dev.lake.core.local.FileRegistry;
import dev.lake.lance.LanceTableReader;
import dev.lake.lance.LanceTableResolver;
import dev.lake.lance.demo.TpchDemo;
import java.nio.file.Path;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.ipc.ArrowReader;
import org.apache.arrow.vector.types.pojo.Schema;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** When the snapshot cache copies (background, second use), reserves, and drops idle copies. */
class SnapshotCacheFillTest {
  @TempDir static Path dir;

  static RootAllocator allocator;
  static LanceTableReader lance;
  static GatedReader reader;
  static DuckDbSqlAdmission admission;
  static Catalogs catalogs;
  static final Principal ALICE = Principal.of("t1", "alice", Set.of("lake.tpch"));
  static final String NATION = "SELECT * FROM lake.tpch.nation ORDER BY n_nationkey";

  @BeforeAll
  static void setUp() {
    allocator = new RootAllocator();
    FileRegistry registry = new FileRegistry(dir.resolve("registry.json"));
    TpchDemo.generate(dir.resolve("data"), 0.01, registry, allocator);
    lance = new LanceTableReader(allocator);
    reader = new GatedReader(lance);
    admission = new DuckDbSqlAdmission();
    catalogs = new Catalogs(List.of(new LanceTableResolver(registry, allocator, Duration.ZERO)));
  }

  @AfterAll
  static void tearDown() {
    admission.close();
    lance.close();
    allocator.close();
  }

  @AfterEach
  void noLeaks() {
    reader.disarm();
    assertThat(allocator.getAllocatedMemory()).isZero();
  }

  private static DuckDbQueryEngine engine(
      long cacheBytes, int parallelism, SnapshotCacheSettings settings) {
    return new DuckDbQueryEngine(
        new EngineConfig(
            512L << 20, 2, dir.resolve("spill"), 1L << 30, 4096, parallelism, cacheBytes),
        List.of(reader),
        settings);
  }

  private static List<List<String>> run(DuckDbQueryEngine engine, String sql) throws Exception {
    AdmittedQuery q = admission.admit(sql);
    return rows(engine.execute(q, List.of(), catalogs.resolveAll(ALICE, q), allocator));
  }

  @Test
  void settings_defaultToSecondUseAndTenIdleMinutes_andRejectOutOfBoundValues() {
    SnapshotCacheSettings defaults = SnapshotCacheSettings.defaults();
    assertThat(defaults.fillAfterUses()).isEqualTo(2);
    assertThat(defaults.idle()).isEqualTo(Duration.ofMinutes(10));
    assertThatThrownBy(
            () -> new SnapshotCacheSettings(0, Duration.ofMinutes(1), Ticker.systemTicker()))
        .hasMessage("fillAfterUses must be between 1 and 100: 0");
    assertThatThrownBy(() -> new SnapshotCacheSettings(2, Duration.ZERO, Ticker.systemTicker()))
        .hasMessage("idle must be between PT1S and PT168H: PT0S");
  }

  @Test
  void firstUse_readsUncached_andAQueryNeverWaitsForACopyInFlight() throws Exception {
    // GIVEN a cache whose background copies block before their first batch
    try (DuckDbQueryEngine engine = engine(64L << 20, 2, SnapshotCacheSettings.defaults())) {
      SnapshotCache cache = engine.snapshotCacheForTest();
      CountDownLatch reached = reader.arm(0);
      List<List<String>> expected = run(engine, NATION);
      // WHEN a snapshot is read once THEN nothing is copied
      cache.awaitFillsForTest(Duration.ofSeconds(60));
      assertThat(reached.getCount()).isEqualTo(1);
      assertThat(cache.materializations()).isZero();
      assertThat(engine.cacheStats().snapshotCopiesPending()).isZero();
      // WHEN it is read a second time THEN a background copy starts
      assertThat(run(engine, NATION)).isEqualTo(expected);
      assertThat(reached.await(60, TimeUnit.SECONDS)).isTrue();
      // WHEN a query reads it while that copy is stuck THEN it is answered uncached, not blocked
      assertThat(run(engine, NATION)).isEqualTo(expected).hasSize(25);
      assertThat(cache.hits()).isZero();
      // AND the engine's stats show the copy as pending (queued or running)
      assertThat(engine.cacheStats().snapshotCopiesPending()).isEqualTo(1);
      // WHEN the copy finishes THEN the next read is a hit
      reader.disarm();
      cache.awaitFillsForTest(Duration.ofSeconds(60));
      assertThat(cache.materializations()).isEqualTo(1);
      assertThat(engine.cacheStats().snapshotCopiesPending()).isZero();
      AdmittedQuery q = admission.admit(NATION);
      try (var cached = engine.execute(q, List.of(), catalogs.resolveAll(ALICE, q), allocator)) {
        assertThat(rows(cached.reader())).isEqualTo(expected);
        // AND the cached read accounts the copy's bytes as scanned
        assertThat(cached.stats().scannedBytes()).isPositive();
      }
      assertThat(cache.hits()).isEqualTo(1);
    }
  }

  @Test
  void aQueryWithATableNotYetCopied_readsAllItsTablesUncached() throws Exception {
    // GIVEN nation copied, region never read
    try (DuckDbQueryEngine engine = engine(64L << 20, 2, SnapshotCacheSettings.defaults())) {
      SnapshotCache cache = engine.snapshotCacheForTest();
      run(engine, NATION);
      run(engine, NATION);
      cache.awaitFillsForTest(Duration.ofSeconds(60));
      String join =
          "SELECT n_name, r_name FROM lake.tpch.nation JOIN lake.tpch.region"
              + " ON n_regionkey = r_regionkey ORDER BY n_name";
      // WHEN a query joins the two
      List<List<String>> first = run(engine, join);
      // THEN no copy is used (a plan mixing copies and streams can be far slower than either)
      assertThat(first).hasSize(25);
      assertThat(cache.hits()).isZero();
      // WHEN region is read again and copied THEN the join reads both copies
      assertThat(run(engine, join)).isEqualTo(first);
      cache.awaitFillsForTest(Duration.ofSeconds(60));
      assertThat(run(engine, join)).isEqualTo(first);
      assertThat(cache.hits()).isEqualTo(2);
    }
  }

  @Test
  void copyInFlight_reservesItsBytes_andEvictsFinishedCopiesToStayWithinTheBound()
      throws Exception {
    // GIVEN a 512 KiB cache holding one copy of ~236 KiB (15,000 decimals), one stream per scan
    long bound = 512L << 10;
    try (DuckDbQueryEngine engine = engine(bound, 1, SnapshotCacheSettings.defaults())) {
      SnapshotCache cache = engine.snapshotCacheForTest();
      String orders = "SELECT sum(o_totalprice) FROM lake.tpch.orders";
      List<List<String>> ordersSum = run(engine, orders);
      run(engine, orders);
      cache.awaitFillsForTest(Duration.ofSeconds(60));
      assertThat(cache.cachedBytes()).isBetween(200L << 10, 256L << 10);
      // WHEN a copy of a larger projection (60,000 decimals) has read five 4,096-row batches
      CountDownLatch reached = reader.arm(5);
      String lineitem = "SELECT max(l_extendedprice) FROM lake.tpch.lineitem";
      List<List<String>> max = run(engine, lineitem);
      assertThat(run(engine, lineitem)).isEqualTo(max);
      assertThat(reached.await(60, TimeUnit.SECONDS)).isTrue();
      // THEN those bytes are reserved and the finished copy was evicted to make room
      assertThat(cache.reservedBytes()).isGreaterThan(300L << 10);
      assertThat(cache.entriesForTest()).isEmpty();
      assertThat(cache.cachedBytes() + cache.reservedBytes()).isLessThanOrEqualTo(bound);
      // WHEN the copy goes on past the bound THEN it stops, returns its reservation, and every
      // answer stays right
      reader.disarm();
      cache.awaitFillsForTest(Duration.ofSeconds(60));
      assertThat(cache.reservedBytes()).isZero();
      assertThat(run(engine, lineitem)).isEqualTo(max);
      assertThat(run(engine, orders)).isEqualTo(ordersSum);
    }
  }

  @Test
  void idleCopies_areDropped_fromTheDatabase() throws Exception {
    // GIVEN a copy and a cache whose copies expire after one idle minute
    AtomicLong nanos = new AtomicLong();
    Ticker ticker = nanos::get;
    try (DuckDbQueryEngine engine =
        engine(64L << 20, 2, new SnapshotCacheSettings(2, Duration.ofMinutes(1), ticker))) {
      SnapshotCache cache = engine.snapshotCacheForTest();
      List<List<String>> expected = run(engine, NATION);
      run(engine, NATION);
      cache.awaitFillsForTest(Duration.ofSeconds(60));
      assertThat(cacheTables(engine)).isEqualTo(1);
      // WHEN it stays unused for longer than that
      nanos.addAndGet(Duration.ofMinutes(2).toNanos());
      cache.cleanUpForTest();
      cache.awaitFillsForTest(Duration.ofSeconds(60));
      // THEN it is gone from the cache and from DuckDB, and the table still reads right
      assertThat(cache.entriesForTest()).isEmpty();
      assertThat(cacheTables(engine)).isZero();
      assertThat(run(engine, NATION)).isEqualTo(expected);
    }
  }

  private static long cacheTables(DuckDbQueryEngine engine) throws Exception {
    try (var c = engine.connectionForTest();
        Statement s = c.createStatement();
        ResultSet rs =
            s.executeQuery(
                "SELECT count(*) FROM duckdb_tables() WHERE schema_name = '"
                    + SnapshotCache.SCHEMA
                    + "'")) {
      rs.next();
      return rs.getLong(1);
    }
  }

  /**
   * The Lance reader, whose scans for the cache (allocator {@code cache-…}) can be held after a
   * given number of batches until disarmed, so a test sees a copy in flight.
   */
  static final class GatedReader implements TableReader, SnapshotProbe {
    private final LanceTableReader lance;
    private volatile CountDownLatch open = new CountDownLatch(0);
    private volatile CountDownLatch reached = new CountDownLatch(0);
    private volatile int allowed;
    private final AtomicInteger passed = new AtomicInteger();

    GatedReader(LanceTableReader lance) {
      this.lance = lance;
    }

    /** Holds cache scans once {@code batches} batches passed; the latch opens when one is held. */
    CountDownLatch arm(int batches) {
      allowed = batches;
      passed.set(0);
      reached = new CountDownLatch(1);
      open = new CountDownLatch(1);
      return reached;
    }

    void disarm() {
      open.countDown();
    }

    @Override
    public boolean supports(Snapshot snapshot) {
      return lance.supports(snapshot);
    }

    @Override
    public Schema schema(TableRef ref, Snapshot snapshot) {
      return lance.schema(ref, snapshot);
    }

    @Override
    public void checkRetained(TableRef ref, Snapshot snapshot) {
      lance.checkRetained(ref, snapshot);
    }

    @Override
    public List<ArrowReader> scan(
        TableRef ref, Snapshot snapshot, ScanRequest request, BufferAllocator allocator) {
      List<ArrowReader> streams = lance.scan(ref, snapshot, request, allocator);
      if (!allocator.getName().startsWith("cache-")) {
        return streams;
      }
      // the gate runs after a batch is loaded and before the cache's own counter sees it
      return streams.stream()
          .map(
              s ->
                  (ArrowReader)
                      new CountingReader(
                          allocator, s, new AtomicLong(), Long.MAX_VALUE, n -> hold()))
          .toList();
    }

    private void hold() {
      if (passed.incrementAndGet() > allowed && open.getCount() > 0) {
        reached.countDown();
        try {
          if (!open.await(60, TimeUnit.SECONDS)) {
            throw new IllegalStateException("the test never opened the gate");
          }
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
          throw new IllegalStateException(e);
        }
      }
    }
  }
}
