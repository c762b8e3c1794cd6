package dev.lake.engine;

import static dev.lake.engine.EngineTestSupport.rows;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.github.benmanes.caffeine.cache.Ticker;
import dev.lake.core.AdmittedQuery;
import dev.lake.core.Catalogs;
import dev.lake.core.ErrorCode;
import dev.lake.core.LakeException;
import dev.lake.core.Principal;
import dev.lake.core.QueryExecution;
import dev.lake.core.SnapshotSet;
import dev.lake.core.TableRef;
import dev.lake.core.local.FileRegistry;
import dev.lake.lance.LanceTableReader;
import dev.lake.lance.LanceTableResolver;
import dev.lake.lance.demo.TpchDemo;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import org.apache.arrow.memory.RootAllocator;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Statements over snapshot-cache copies run on pooled connections that keep them prepared: reused
 * only with exactly the same text (so the same copies), parameters bound afresh every run, and a
 * connection never reused after a run that did not end cleanly.
 */
class PreparedConnectionsTest {
  @TempDir static Path dir;

  static RootAllocator allocator;
  static LanceTableReader lance;
  static DuckDbSqlAdmission admission;
  static Catalogs catalogs;
  static final Principal ALICE = Principal.of("t1", "alice", Set.of("lake.tpch"));
  static final String NATION = "SELECT * FROM lake.tpch.nation ORDER BY n_nationkey";
  static final String BY_KEY = "SELECT n_name FROM lake.tpch.nation WHERE n_nationkey = ?";

  DuckDbQueryEngine engine;

  @BeforeAll
  static void setUp() {
    allocator = new RootAllocator();
    FileRegistry registry = new FileRegistry(dir.resolve("registry.json"));
    TpchDemo.generate(dir.resolve("data"), 0.01, registry, allocator);
    lance = new LanceTableReader(allocator);
    admission = new DuckDbSqlAdmission();
    catalogs = new Catalogs(List.of(new LanceTableResolver(registry, allocator, Duration.ZERO)));
  }

  @AfterAll
  static void tearDown() {
    admission.close();
    lance.close();
    allocator.close();
  }

  @BeforeEach
  void openEngine() throws Exception {
    engine =
        new DuckDbQueryEngine(
            new EngineConfig(512L << 20, 2, dir.resolve("spill"), 1L << 30, 4096, 2, 64L << 20),
            List.of(lance),
            new SnapshotCacheSettings(1, Duration.ofMinutes(10), Ticker.systemTicker()));
    // nation read once is copied in the background; later reads are cache hits
    run(NATION, List.of());
    engine.snapshotCacheForTest().awaitFillsForTest(Duration.ofSeconds(60));
    assertThat(engine.snapshotCacheForTest().materializations()).isEqualTo(1);
  }

  @AfterEach
  void closeEngine() {
    engine.close();
    assertThat(allocator.getAllocatedMemory()).isZero();
  }

  private PreparedConnections statements() {
    return engine.poolsForTest().pool(0).statements();
  }

  private QueryExecution execute(String sql, List<Object> parameters) {
    AdmittedQuery q = admission.admit(sql);
    return engine.execute(q, parameters, catalogs.resolveAll(ALICE, q), allocator);
  }

  private List<List<String>> run(String sql, List<Object> parameters) throws Exception {
    return rows(execute(sql, parameters));
  }

  @Test
  void repeatedStatementOverACachedCopy_isPreparedOnce_onOneConnection() throws Exception {
    // GIVEN nation cached; WHEN the same statement runs three times
    List<List<String>> first = run(NATION, List.of());
    List<List<String>> second = run(NATION, List.of());
    List<List<String>> third = run(NATION, List.of());
    // THEN every answer is the full table, and DuckDB prepared it once on one idle connection
    assertThat(first).hasSize(25).isEqualTo(second).isEqualTo(third);
    assertThat(engine.snapshotCacheForTest().hits()).isEqualTo(3);
    assertThat(statements().prepares()).isEqualTo(1);
    assertThat(statements().idleCount()).isEqualTo(1);
  }

  @Test
  void reusedStatement_bindsEachRunsOwnParameters() throws Exception {
    // GIVEN one statement text with a parameter
    // WHEN it runs with 1, then 2, then 1 again
    // THEN each run answers for its own value
    assertThat(run(BY_KEY, List.of(1L))).containsExactly(List.of("ARGENTINA"));
    assertThat(run(BY_KEY, List.of(2L))).containsExactly(List.of("BRAZIL"));
    assertThat(run(BY_KEY, List.of(1L))).containsExactly(List.of("ARGENTINA"));
    assertThat(statements().prepares()).isEqualTo(1);
    // AND a run with the wrong number of values fails, and the next one still works
    assertThatThrownBy(() -> run(BY_KEY, List.of()))
        .isInstanceOfSatisfying(
            LakeException.class, e -> assertThat(e.code()).isEqualTo(ErrorCode.INVALID_ARGUMENT));
    assertThat(run(BY_KEY, List.of(3L))).containsExactly(List.of("CANADA"));
  }

  @Test
  void aRunClosedBeforeItsEnd_orCancelled_neverReturnsItsConnection() throws Exception {
    // GIVEN one idle connection with the statement prepared
    run(NATION, List.of());
    assertThat(statements().idleCount()).isEqualTo(1);
    // WHEN a run is abandoned after its first batch
    try (QueryExecution abandoned = execute(NATION, List.of())) {
      assertThat(abandoned.reader().loadNextBatch()).isTrue();
      assertThat(statements().idleCount()).isZero();
    }
    // THEN its connection was closed, not pooled
    assertThat(statements().idleCount()).isZero();
    // WHEN a run is cancelled before it starts
    try (QueryExecution cancelled = execute(NATION, List.of())) {
      cancelled.cancel();
      assertThatThrownBy(() -> cancelled.reader().loadNextBatch())
          .isInstanceOfSatisfying(
              LakeException.class, e -> assertThat(e.code()).isEqualTo(ErrorCode.CANCELLED));
    }
    // THEN neither is its connection; a later cancel of a finished run touches nothing
    assertThat(statements().idleCount()).isZero();
    QueryExecution finished = execute(NATION, List.of());
    assertThat(rows(finished)).hasSize(25);
    finished.cancel();
    assertThat(statements().idleCount()).isEqualTo(1);
    assertThat(run(NATION, List.of())).hasSize(25);
    assertThat(statements().idleCount()).isEqualTo(1);
  }

  @Test
  void aCopyDroppedAndMadeAgain_isReadUnderItsNewName_neverThroughTheOldStatement()
      throws Exception {
    // GIVEN the statement prepared over copy lake_c1
    List<List<String>> expected = run(NATION, List.of());
    AdmittedQuery q = admission.admit(NATION);
    SnapshotSet snapshots = catalogs.resolveAll(ALICE, q);
    // WHEN the copy is evicted (its table dropped) and the snapshot read again
    engine.poolsForTest().evict(snapshots.resolve(TableRef.parse("lake.tpch.nation")));
    assertThat(run(NATION, List.of())).isEqualTo(expected); // uncached, and copied again
    engine.snapshotCacheForTest().awaitFillsForTest(Duration.ofSeconds(60));
    assertThat(engine.snapshotCacheForTest().materializations()).isEqualTo(2);
    // THEN the next run reads the new copy through a statement of its own
    assertThat(run(NATION, List.of())).isEqualTo(expected);
    assertThat(statements().prepares()).isEqualTo(2);
  }

  @Test
  void closingThePoolsConnections_closesIdleOnes_andLaterLeasesAreNotKept() throws Exception {
    // GIVEN an idle connection
    run(NATION, List.of());
    assertThat(statements().idleCount()).isEqualTo(1);
    PreparedConnections statements = statements();
    // WHEN the pool's connections are closed THEN none stays idle
    statements.close();
    assertThat(statements.idleCount()).isZero();
    // AND a run after that still works on a connection of its own, which is not kept
    assertThat(run(NATION, List.of())).hasSize(25);
    assertThat(statements.idleCount()).isZero();
  }
}
