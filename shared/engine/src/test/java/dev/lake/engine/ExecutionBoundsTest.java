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
import dev.lake.core.local.FileRegistry;
import dev.lake.lance.LanceTableReader;
import dev.lake.lance.LanceTableResolver;
import dev.lake.lance.demo.TpchDemo;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.ipc.ArrowReader;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Schema;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Planning never executes; every execution is streamed, bounded by DuckDB's memory limit and by a
 * deadline, and cancellable from another thread. Each hostile case ends with a fresh statement.
 */
class ExecutionBoundsTest {
  static final String FOREVER = "SELECT count(*) AS n FROM range(1000000000000000)";
  @TempDir static Path dir;
  static RootAllocator allocator;
  static DuckDbQueryEngine engine;
  static DuckDbSqlAdmission admission;
  static Catalogs catalogs;
  static final Principal ALICE = Principal.of("t1", "alice", Set.of("lake.tpch"));
  static final AtomicInteger fresh = new AtomicInteger();

  @BeforeAll
  static void setUp() {
    allocator = new RootAllocator();
    FileRegistry registry = new FileRegistry(dir.resolve("registry.json"));
    TpchDemo.generate(dir.resolve("data"), 0.01, registry, allocator);
    // the smallest memory limit the config allows, with 256 MiB of spill and a 20 s deadline
    engine =
        new DuckDbQueryEngine(
            new EngineConfig(64L << 20, 2, dir.resolve("spill"), 256L << 20, 4096, 2)
                .withTimeouts(Duration.ofSeconds(20), Duration.ofMinutes(1), Duration.ofHours(1)),
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

  @AfterEach
  void freshStatementSucceeds_andNothingLeaks() throws Exception {
    int n = fresh.incrementAndGet();
    assertThat(run("SELECT count(*) + " + n + " FROM lake.tpch.region"))
        .containsExactly(List.of(String.valueOf(5 + n)));
    assertThat(allocator.getAllocatedMemory()).isZero();
  }

  private static List<List<String>> run(String sql) throws Exception {
    return rows(execute(sql, Duration.ofSeconds(20)));
  }

  private static QueryExecution execute(String sql, Duration timeout) {
    AdmittedQuery q = admission.admit(sql);
    SnapshotSet s = catalogs.resolveAll(ALICE, q);
    return engine.execute(q, List.of(), s, allocator, timeout);
  }

  private static Schema plan(String sql) {
    AdmittedQuery q = admission.admit(sql);
    return engine.plan(q, catalogs.resolveAll(ALICE, q));
  }

  @Test
  void plan_ofADaysLongAggregate_returnsItsSchemaWithoutRunningIt() {
    long t0 = System.nanoTime();
    Schema schema = plan(FOREVER);
    assertThat((System.nanoTime() - t0) / 1_000_000).isLessThan(5_000);
    assertThat(schema.getFields()).hasSize(1);
    assertThat(schema.getFields().get(0).getName()).isEqualTo("n");
    assertThat(schema.getFields().get(0).getType()).isEqualTo(new ArrowType.Int(64, true));
  }

  @Test
  void plan_keepsTheExactSchema_ofLimitedAndSetQueries() throws Exception {
    String sql =
        "SELECT n_name, n_nationkey * 2 AS twice FROM lake.tpch.nation"
            + " UNION ALL SELECT r_name, r_regionkey FROM lake.tpch.region ORDER BY 2 LIMIT 3 OFFSET 1";
    Schema planned = plan(sql);
    try (QueryExecution e = execute(sql, Duration.ofSeconds(20))) {
      ArrowReader reader = e.reader();
      assertThat(reader.getVectorSchemaRoot().getSchema()).isEqualTo(planned);
      assertThat(rows(reader)).hasSize(3);
    }
  }

  @Test
  void execute_streamsAHugeResult_firstBatchBeforeTheLastRowExists() throws Exception {
    // 10^10 rows would be 80 GB materialized; streamed, the first batches arrive at once
    try (QueryExecution e = execute("SELECT * FROM range(10000000000)", Duration.ofSeconds(20))) {
      ArrowReader reader = e.reader();
      long t0 = System.nanoTime();
      for (int i = 0; i < 3; i++) {
        assertThat(reader.loadNextBatch()).isTrue();
      }
      assertThat((System.nanoTime() - t0) / 1_000_000).isLessThan(5_000);
      assertThat(allocator.getAllocatedMemory()).isLessThan(16L << 20);
    }
  }

  @Test
  void finishedStatements_leaveNoDeadlineQueued() throws Exception {
    // GIVEN statements with a 20 s deadline that each finish in milliseconds
    for (int i = 0; i < 20; i++) {
      run("SELECT count(*) + " + i + " FROM lake.tpch.nation");
    }
    // THEN their cancelled deadlines are gone from the timer, not held until they would fire
    assertThat(engine.pendingDeadlines()).isZero();
  }

  @Test
  void execute_endsWithDeadlineExceeded_namingTheLimit() {
    long t0 = System.nanoTime();
    assertThatThrownBy(() -> rows(execute(FOREVER, Duration.ofMillis(1500))))
        .isInstanceOfSatisfying(
            LakeException.class, e -> assertThat(e.code()).isEqualTo(ErrorCode.DEADLINE_EXCEEDED))
        .hasMessageContaining("deadline of 1.5s")
        .hasMessageContaining("durable tier");
    assertThat((System.nanoTime() - t0) / 1_000_000).isBetween(1_400L, 6_000L);
  }

  @Test
  void cancel_fromAnotherThread_interruptsDuckDbPromptly() throws Exception {
    QueryExecution e = execute(FOREVER, Duration.ofSeconds(20));
    CompletableFuture<Throwable> outcome =
        CompletableFuture.supplyAsync(
            () -> {
              try {
                rows(e.reader());
                return null;
              } catch (Throwable t) {
                return t;
              }
            });
    // let it start computing; then cancel and time how long DuckDB takes to stop
    assertThat(outcome).isNotDone();
    long t0 = System.nanoTime();
    e.cancel();
    Throwable t = outcome.get(5, TimeUnit.SECONDS);
    long stopMillis = (System.nanoTime() - t0) / 1_000_000;
    e.close();
    assertThat(t)
        .isInstanceOfSatisfying(
            LakeException.class, x -> assertThat(x.code()).isEqualTo(ErrorCode.CANCELLED));
    assertThat(stopMillis).isLessThan(3_000);
    System.out.printf("engine: cancel -> DuckDB stopped in %d ms%n", stopMillis);
  }

  @Test
  void execute_overTheMemoryLimit_isResourceExhausted_namingTheLimits() {
    // a 40M-element list aggregate needs ~320 MB: over 64 MiB of memory (lists do not spill)
    assertThatThrownBy(() -> run("SELECT len(list(range)) FROM range(40000000)"))
        .isInstanceOfSatisfying(
            LakeException.class, e -> assertThat(e.code()).isEqualTo(ErrorCode.RESOURCE_EXHAUSTED))
        .hasMessageContaining("64 MiB, memory_limit")
        .hasMessageContaining("durable tier");
  }
}
