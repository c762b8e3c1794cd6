package dev.lake.engine;

import static dev.lake.engine.EngineTestSupport.rows;
import static org.assertj.core.api.Assertions.assertThat;

import dev.lake.core.AdmittedQuery;
import dev.lake.core.ErrorCode;
import dev.lake.core.LakeException;
import dev.lake.core.QueryEngine;
import dev.lake.core.QueryExecution;
import dev.lake.core.SnapshotSet;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.arrow.memory.RootAllocator;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A tenant that exhausts its memory pool fails only its own statements: another tenant's
 * statements, running at the same time and needing memory of their own, all succeed (with one
 * shared {@code memory_limit}, as before memory pools, they fail with RESOURCE_EXHAUSTED while the
 * hog holds the pool full).
 */
class TenantMemoryIsolationTest {
  /**
   * A hash aggregate of 300,000 groups: about 12 MiB of DuckDB buffer memory, held while its stream
   * is open (the groups are emitted batch by batch). Each use gets a new text.
   */
  static final String GROUPS =
      "SELECT range AS k, count(*) + %d AS c FROM range(300000) GROUP BY k";

  @TempDir static Path dir;
  static RootAllocator allocator;
  static DuckDbQueryEngine engine;
  static DuckDbSqlAdmission admission;
  static final AtomicInteger texts = new AtomicInteger();

  @BeforeAll
  static void setUp() {
    allocator = new RootAllocator();
    // 256 MiB in two pools of 128 MiB; spill off, so that memory held is memory in use (with
    // spill, DuckDB would move held hash tables to disk to make room: the load test's memory hog
    // builds a list, which cannot move)
    engine =
        new DuckDbQueryEngine(
            EngineConfigBuilder.builder(
                    new EngineConfig(256L << 20, 2, dir.resolve("spill"), 0, 4096, 2))
                .memoryPools(2)
                .build(),
            List.of());
    admission = new DuckDbSqlAdmission();
  }

  @AfterAll
  static void tearDown() {
    engine.close();
    admission.close();
    allocator.close();
  }

  private static QueryExecution open(QueryEngine tenant, String sql) {
    AdmittedQuery q = admission.admit(sql);
    return tenant.execute(q, List.of(), SnapshotSet.empty(), allocator);
  }

  private static List<List<String>> run(QueryEngine tenant, String sql) throws Exception {
    return rows(open(tenant, sql));
  }

  /** Opens a statement holding ~12 MiB and reads its first batch, leaving the stream open. */
  private static QueryExecution hold(QueryEngine tenant) throws Exception {
    QueryExecution e = open(tenant, String.format(GROUPS, texts.incrementAndGet()));
    try {
      assertThat(e.reader().loadNextBatch()).isTrue();
      return e;
    } catch (Exception | Error x) {
      e.close();
      throw x;
    }
  }

  /** Rows of the batch loaded and of every batch after it; closes the execution. */
  private static long drain(QueryExecution e) throws Exception {
    try (e) {
      long n = e.reader().getVectorSchemaRoot().getRowCount();
      while (e.reader().loadNextBatch()) {
        n += e.reader().getVectorSchemaRoot().getRowCount();
      }
      return n;
    }
  }

  @Test
  void aMemoryHog_failsOnlyItself_whileAnotherTenantsStatementsAllSucceed() throws Exception {
    QueryEngine greedy = engine.forTenant("greedy");
    QueryEngine polite = engine.forTenant("polite");
    List<QueryExecution> held = new ArrayList<>();
    try {
      // GIVEN tenant "greedy" opening ~12 MiB statements and keeping them open until one is
      // refused: about ten fit in its 128 MiB pool (with one shared memory_limit of 256 MiB,
      // twenty would, 239 MiB, and the polite statements below fail RESOURCE_EXHAUSTED)
      LakeException refused = null;
      for (int i = 0; i < 40 && refused == null; i++) {
        try {
          held.add(hold(greedy));
        } catch (LakeException e) {
          refused = e;
        }
      }
      assertThat(refused).as("the hog is refused").isNotNull();
      assertThat(refused.code()).isEqualTo(ErrorCode.RESOURCE_EXHAUSTED);
      assertThat(refused.getMessage())
          .contains(
              "its tenant's memory pool (128 MiB, memory_limit; the engine memory is split into 2")
          .contains("durable tier");
      assertThat(held).hasSizeBetween(1, 12);

      // WHEN tenant "polite" runs two such statements at once while the hog holds its pool full
      QueryExecution first = hold(polite);
      QueryExecution second = hold(polite);

      // THEN both succeed in full
      assertThat(drain(first)).isEqualTo(300_000);
      assertThat(drain(second)).isEqualTo(300_000);
    } finally {
      held.forEach(QueryExecution::close);
    }
    // AND fresh, never-seen statements of both tenants succeed, and nothing leaked
    assertThat(run(polite, "SELECT 41 + 1 AS fresh_polite")).containsExactly(List.of("42"));
    assertThat(run(greedy, "SELECT 40 + 3 AS fresh_greedy")).containsExactly(List.of("43"));
    assertThat(allocator.getAllocatedMemory()).isZero();
  }

  @Test
  void eachTenantRunsInAPoolOfItsOwn_andAThirdWaitsThenIsTurnedAwayBusy() throws Exception {
    // GIVEN two tenants each holding an open statement (streams not yet drained)
    EngineConfig waitShort =
        EngineConfigBuilder.builder(
                new EngineConfig(128L << 20, 1, dir.resolve("spill-wait"), 0, 4096, 1))
            .memoryPools(2)
            .memoryPoolWait(Duration.ofMillis(200))
            .build();
    try (DuckDbQueryEngine small = new DuckDbQueryEngine(waitShort, List.of())) {
      AdmittedQuery q = admission.admit("SELECT * FROM range(10)");
      QueryExecution a = small.forTenant("a").execute(q, List.of(), SnapshotSet.empty(), allocator);
      QueryExecution a2 =
          small.forTenant("a").execute(q, List.of(), SnapshotSet.empty(), allocator);
      QueryExecution b = small.forTenant("b").execute(q, List.of(), SnapshotSet.empty(), allocator);
      TenantPools pools = small.poolsForTest();
      assertThat(List.of(pools.ownerForTest(0), pools.ownerForTest(1)))
          .containsExactlyInAnyOrder("a", "b");

      // WHEN a third tenant asks
      LakeException busy =
          org.junit.jupiter.api.Assertions.assertThrows(
              LakeException.class,
              () -> small.forTenant("c").execute(q, List.of(), SnapshotSet.empty(), allocator));

      // THEN it is turned away busy after the wait, naming the pools
      assertThat(busy.code()).isEqualTo(ErrorCode.OVERLOADED);
      assertThat(busy.getMessage()).contains("all 2 engine memory pools", "retry later");

      // AND once "a" has closed both of its statements, "c" runs in the pool "a" left
      int aPool = "a".equals(pools.ownerForTest(0)) ? 0 : 1;
      a.close();
      assertThat(pools.ownerForTest(aPool)).isEqualTo("a");
      a2.close();
      assertThat(pools.ownerForTest(aPool)).isNull();
      assertThat(rows(small.forTenant("c").execute(q, List.of(), SnapshotSet.empty(), allocator)))
          .hasSize(10);
      assertThat(pools.ownerForTest(1 - aPool)).isEqualTo("b");
      b.close();
      assertThat(pools.ownerForTest(0)).isNull();
      assertThat(pools.ownerForTest(1)).isNull();
    }
    assertThat(allocator.getAllocatedMemory()).isZero();
  }
}
