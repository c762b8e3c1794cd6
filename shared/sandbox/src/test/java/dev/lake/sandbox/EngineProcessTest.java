package dev.lake.sandbox;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.lake.core.AdmittedQuery;
import dev.lake.core.ErrorCode;
import dev.lake.core.LakeException;
import dev.lake.core.QueryEngine;
import dev.lake.core.QueryExecution;
import dev.lake.core.SnapshotSet;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.ipc.ArrowReader;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** Real engine processes (DuckDB in child JVMs) behind the supervisor: results, errors, limits. */
class EngineProcessTest {
  static final long CEILING = 640L << 20;
  static RootAllocator allocator;
  static SandboxedQueryEngine engine;
  static EngineSupervisor supervisor;

  @BeforeAll
  static void start() {
    allocator = new RootAllocator();
    SandboxConfig config =
        SandboxConfig.defaults().withCeilingBytes(CEILING).withGrace(Duration.ofSeconds(1));
    supervisor =
        new EngineSupervisor(
            config,
            new EngineLaunch(TestEngineMain.class.getName(), List.of("128"), Map.of(), ""),
            2,
            CEILING);
    engine =
        new SandboxedQueryEngine(
            supervisor,
            new SandboxedQueryEngine.Limits(
                Duration.ofSeconds(30), Duration.ofMinutes(1), Duration.ofSeconds(5)),
            Optional.empty());
  }

  @AfterAll
  static void stop() {
    engine.close();
    allocator.close();
  }

  static AdmittedQuery select(String sql) {
    return AdmittedQuery.of(sql, AdmittedQuery.Kind.SELECT, List.of());
  }

  static long count(QueryEngine e, String sql) throws Exception {
    try (QueryExecution x = e.execute(select(sql), List.of(), SnapshotSet.empty(), allocator)) {
      ArrowReader r = x.reader();
      long rows = 0;
      while (r.loadNextBatch()) {
        rows += r.getVectorSchemaRoot().getRowCount();
      }
      return rows;
    }
  }

  @Test
  void execute_streamsEveryRow_andReportsStats() throws Exception {
    QueryEngine tenant = engine.forTenant("a");
    try (QueryExecution x =
        tenant.execute(
            select("SELECT range AS n, 'x' || range AS s FROM range(100000)"),
            List.of(),
            SnapshotSet.empty(),
            allocator)) {
      long rows = 0;
      while (x.reader().loadNextBatch()) {
        rows += x.reader().getVectorSchemaRoot().getRowCount();
      }
      assertThat(rows).isEqualTo(100_000);
      assertThat(x.reader().getVectorSchemaRoot().getSchema().getFields())
          .extracting(f -> f.getName())
          .containsExactly("n", "s");
      assertThat(x.stats().resultBytes()).isPositive();
    }
  }

  @Test
  void plan_returnsTheSchema_andParametersBind() throws Exception {
    QueryEngine tenant = engine.forTenant("a");
    assertThat(
            tenant
                .plan(select("SELECT 1::INTEGER AS one, 'a' AS s"), SnapshotSet.empty())
                .getFields())
        .extracting(f -> f.getName())
        .containsExactly("one", "s");
    try (QueryExecution x =
        tenant.execute(select("SELECT ? + 1 AS n"), List.of(41L), SnapshotSet.empty(), allocator)) {
      assertThat(x.reader().loadNextBatch()).isTrue();
      assertThat(x.reader().getVectorSchemaRoot().getVector(0).getObject(0)).isEqualTo(42L);
    }
  }

  @Test
  void parameterTypes_namesThePlaceholders_notTheResultColumns() {
    // GIVEN a statement without placeholders and one with two
    QueryEngine tenant = engine.forTenant("a");
    AdmittedQuery none = select("SELECT 1::INTEGER AS one, 'a' AS s");
    AdmittedQuery two = select("SELECT ?::BIGINT + 1 AS n, ?::VARCHAR AS s");

    // WHEN the engine process types their parameters
    // THEN the first has none and the second has its two, typed like the casts
    assertThat(tenant.parameterTypes(none, SnapshotSet.empty()).getFields()).isEmpty();
    assertThat(tenant.parameterTypes(two, SnapshotSet.empty()).getFields())
        .extracting(f -> f.getType().toString())
        .containsExactly("Int(64, true)", "Utf8");
  }

  @Test
  void execute_failsWithTheEnginesError_whenTheStatementFails() {
    assertThatThrownBy(() -> count(engine.forTenant("a"), "SELECT 1 / 'x'::INTEGER"))
        .isInstanceOfSatisfying(
            LakeException.class, e -> assertThat(e.code()).isEqualTo(ErrorCode.QUERY_FAILED));
    assertThatThrownBy(() -> count(engine.forTenant("a"), "SELECT CAST('boom' AS INTEGER)"))
        .isInstanceOf(LakeException.class)
        .hasMessageContaining("boom");
  }

  @Test
  void ceiling_killsTheProcess_failsItsStatement_andTheNextOneRunsOnTheSpare() throws Exception {
    QueryEngine hog = engine.forTenant("hog");
    assertThat(count(hog, "SELECT 1")).isEqualTo(1);
    long before = supervisor.figures().ceilingKills();
    long start = System.nanoTime();
    assertThatThrownBy(
            () ->
                count(
                    hog,
                    // strings built while evaluating an expression live outside DuckDB's
                    // memory_limit (DuckDB 1.5 keeps window-list state inside it, so the old
                    // window bomb is refused by DuckDB itself): ~1 GB of one string, far past
                    // the 640 MiB ceiling, from 1 KB of SQL
                    "SELECT length(replace(replace(s, 'a', s), 'a', s)) AS n FROM (SELECT '"
                        + "a".repeat(1000)
                        + "' AS s)"))
        .isInstanceOfSatisfying(
            LakeException.class,
            e -> {
              assertThat(e.code()).isEqualTo(ErrorCode.RESOURCE_EXHAUSTED);
              assertThat(e.getMessage()).contains("memory ceiling of 640 MiB");
            });
    assertThat(supervisor.figures().ceilingKills()).isEqualTo(before + 1);
    // the killed process's temp directory (its extracted native libraries) is removed
    long end = System.nanoTime() + Duration.ofSeconds(10).toNanos();
    while (liveTemps() != supervisor.figures().live() && System.nanoTime() < end) {
      Thread.sleep(20);
    }
    assertThat(liveTemps()).isEqualTo(supervisor.figures().live());
    assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(Duration.ofSeconds(30));
    assertThat(count(hog, "SELECT * FROM range(10)")).isEqualTo(10);
    assertThat(supervisor.figures().peakResidentBytes()).isLessThan(CEILING + (400L << 20));
  }

  /** Temp directories of engine processes that exist now. */
  private static long liveTemps() throws java.io.IOException {
    try (var files = java.nio.file.Files.list(supervisor.temp(0).getParent())) {
      return files.filter(f -> f.getFileName().toString().endsWith(".tmp")).count();
    }
  }

  @Test
  void deadline_stopsANativeCallThatIgnoresCancel_withinTheGrace() throws Exception {
    QueryEngine slow = engine.forTenant("slow");
    assertThat(count(slow, "SELECT 1")).isEqualTo(1); // its process is started
    long start = System.nanoTime();
    assertThatThrownBy(
            () -> {
              try (QueryExecution x =
                  slow.execute(
                      select(
                          "SELECT levenshtein('"
                              + "ab".repeat(50_000)
                              + "', '"
                              + "ba".repeat(50_000)
                              + "') AS d"),
                      List.of(),
                      SnapshotSet.empty(),
                      allocator,
                      Duration.ofSeconds(1))) {
                x.reader().loadNextBatch();
              }
            })
        .isInstanceOfSatisfying(
            LakeException.class, e -> assertThat(e.code()).isEqualTo(ErrorCode.DEADLINE_EXCEEDED));
    // deadline 1 s + grace 1 s + a second for the kill to land
    assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(Duration.ofSeconds(3));
    assertThat(count(slow, "SELECT 42")).isEqualTo(1);
  }
}
