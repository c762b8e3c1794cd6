package dev.lake.engine;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.lake.core.AdmittedQuery;
import dev.lake.core.ErrorCode;
import dev.lake.core.FileScanSource;
import dev.lake.core.LakeException;
import dev.lake.core.ScanRequest;
import dev.lake.core.Snapshot;
import dev.lake.core.SnapshotSet;
import dev.lake.core.TableReader;
import dev.lake.core.TableRef;
import java.nio.file.Path;
import java.sql.DriverManager;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.ipc.ArrowReader;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.Schema;
import org.duckdb.DuckDBConnection;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A reader that hands the engine file-reading scans ({@link FileScanSource}): the engine's DuckDB
 * reads the reader's directory and nothing else, even if a scan named another file, and clients
 * still cannot name files.
 */
class FileScanConfinementTest {
  @TempDir static Path dir;
  static Path allowed;
  static Path outside;
  static DuckDbQueryEngine engine;
  static DuckDbSqlAdmission admission;
  static BufferAllocator allocator;
  static final FakeFiles reader = new FakeFiles();

  /** A fake of lake's own port: one table {@code files.t.v} read from a file it names. */
  static final class FakeFiles implements TableReader, FileScanSource {
    volatile String file;
    final AtomicInteger leasesClosed = new AtomicInteger();

    @Override
    public boolean supports(Snapshot snapshot) {
      return snapshot instanceof FakeSnapshot;
    }

    @Override
    public Schema schema(TableRef ref, Snapshot snapshot) {
      return new Schema(List.of(Field.nullable("x", new ArrowType.Int(64, true))));
    }

    @Override
    public List<ArrowReader> scan(
        TableRef ref, Snapshot snapshot, ScanRequest request, BufferAllocator allocator) {
      throw new AssertionError("the engine must use the file scan");
    }

    @Override
    public List<Path> readableDirectories() {
      return List.of(allowed);
    }

    @Override
    public Optional<FileScan> fileScan(TableRef ref, Snapshot snapshot, ScanRequest request) {
      return Optional.of(
          new FileScan(
              "SELECT x FROM read_parquet(['" + file + "'])",
              0,
              List.of(leasesClosed::incrementAndGet)));
    }
  }

  record FakeSnapshot() implements Snapshot {
    @Override
    public String describe() {
      return "files snapshot";
    }
  }

  @BeforeAll
  static void start() throws Exception {
    allowed = dir.resolve("allowed");
    outside = dir.resolve("allowed-not"); // shares the prefix without the separator
    java.nio.file.Files.createDirectories(allowed);
    java.nio.file.Files.createDirectories(outside);
    try (var c = DriverManager.getConnection("jdbc:duckdb:");
        Statement s = c.createStatement()) {
      for (Path d : List.of(allowed, outside)) {
        s.execute(
            "COPY (SELECT range AS x FROM range(3)) TO '"
                + d.resolve("f.parquet")
                + "' (FORMAT parquet)");
      }
    }
    engine = new DuckDbQueryEngine(EngineConfig.defaults(dir.resolve("spill")), List.of(reader));
    admission = new DuckDbSqlAdmission();
    allocator = new RootAllocator();
  }

  @AfterAll
  static void stop() {
    engine.close();
    admission.close();
    allocator.close();
  }

  @Test
  void fileScan_readsTheReadersDirectory_andEndsItsLeases() throws Exception {
    // GIVEN a scan of a file in the reader's directory
    reader.file = allowed.resolve("f.parquet").toString();
    int closed = reader.leasesClosed.get();

    // WHEN queried (the table twice: a view can be read any number of times)
    List<List<String>> rows = run("SELECT sum(a.x) + sum(b.x) FROM files.t.v a, files.t.v b");

    // THEN DuckDB read it, and the scan's lease ended with the query
    assertThat(rows).containsExactly(List.of("18"));
    assertThat(reader.leasesClosed.get()).isEqualTo(closed + 1);
  }

  @Test
  void repeatedFileScan_isPreparedOnce_andEndsItsLeasesEveryTime() throws Exception {
    // GIVEN a file scan whose text names the same immutable file every time
    reader.file = allowed.resolve("f.parquet").toString();
    String sql = "SELECT max(x) + 40 FROM files.t.v";
    long prepares = prepares();
    int closed = reader.leasesClosed.get();

    // WHEN the same statement runs three times
    List<List<String>> first = run(sql);
    long afterFirst = prepares();
    List<List<String>> second = run(sql);
    List<List<String>> third = run(sql);

    // THEN DuckDB prepared it once, on a pooled connection, and every run answered in full
    assertThat(first).containsExactly(List.of("42")).isEqualTo(second).isEqualTo(third);
    assertThat(afterFirst).isEqualTo(prepares + 1);
    assertThat(prepares()).isEqualTo(afterFirst);
    // AND each run's lease on the file ended with it
    assertThat(reader.leasesClosed.get()).isEqualTo(closed + 3);
  }

  /** Statements prepared on pooled connections of every memory pool so far. */
  private static long prepares() {
    long n = 0;
    for (int i = 0; i < EngineConfig.defaults(dir.resolve("spill")).memoryPools(); i++) {
      n += engine.poolsForTest().pool(i).statements().prepares();
    }
    return n;
  }

  @Test
  void clientError_overAFileScan_namesNeitherTheScanNorItsFiles() throws Exception {
    // GIVEN a file scan (inlined into the statement as a subquery)
    reader.file = allowed.resolve("f.parquet").toString();

    // WHEN the client's statement fails to bind
    assertThatThrownBy(() -> run("SELECT no_such_column FROM files.t.v"))
        .isInstanceOf(LakeException.class)
        // THEN the error is the client's, without DuckDB's quote of the rewritten statement
        .satisfies(e -> assertThat(((LakeException) e).code()).isEqualTo(ErrorCode.QUERY_FAILED))
        .hasMessageContaining("no_such_column")
        .hasMessageNotContaining(allowed.toString())
        .hasMessageNotContaining("read_parquet")
        .hasMessageNotContaining("LINE");

    // THEN a fresh query still works
    assertThat(run("SELECT sum(x) FROM files.t.v")).containsExactly(List.of("3"));
  }

  @Test
  void fileScan_cannotReadOutsideTheReadersDirectory_evenIfAScanNamedIt() {
    // GIVEN a (misbehaving) scan naming a file outside, behind a shared name prefix and via ..
    for (String file :
        List.of(outside.resolve("f.parquet").toString(), allowed + "/../allowed-not/f.parquet")) {
      reader.file = file;

      // WHEN queried THEN DuckDB refuses the file (an internal error: the reader misbehaved),
      // and the message names no path
      assertThatThrownBy(() -> run("SELECT * FROM files.t.v"))
          .isInstanceOf(LakeException.class)
          .hasMessage("A table scan named a file outside the engine's readable directories")
          .satisfies(e -> assertThat(((LakeException) e).code()).isEqualTo(ErrorCode.INTERNAL))
          .cause()
          .hasMessageContaining("Permission Error");
    }
    // THEN the next query still works
    reader.file = allowed.resolve("f.parquet").toString();
    assertThat(sqlOnEngine("SELECT 1")).isTrue();
  }

  @Test
  void clients_cannotNameFiles_norChangeTheConfinement() throws Exception {
    // WHEN a client names a file of the readable directory THEN admission refuses it
    String file = allowed.resolve("f.parquet").toString();
    for (String sql :
        List.of(
            "SELECT * FROM read_parquet('" + file + "')",
            "SELECT * FROM '" + file + "'",
            "SELECT * FROM read_blob('" + file + "')",
            "SELECT * FROM glob('" + allowed + "/*')",
            "COPY (SELECT 1) TO '" + allowed + "/w.parquet'",
            "SET allowed_directories = ['/']")) {
      assertThatThrownBy(() -> admission.admit(sql)).isInstanceOf(LakeException.class);
    }
    // AND on an engine connection the configuration is locked
    try (DuckDBConnection c = engine.connectionForTest();
        Statement s = c.createStatement()) {
      assertThatThrownBy(() -> s.execute("SET allowed_directories = ['/']"))
          .hasMessageContaining("lock");
      assertThatThrownBy(() -> s.execute("SET enable_external_access = true"))
          .isInstanceOf(java.sql.SQLException.class);
    }
  }

  private static List<List<String>> run(String sql) throws Exception {
    AdmittedQuery q = admission.admit(sql);
    SnapshotSet set = new SnapshotSet(Map.of(TableRef.parse("files.t.v"), new FakeSnapshot()));
    engine.plan(q, set);
    return EngineTestSupport.rows(engine.execute(q, new ArrayList<>(), set, allocator));
  }

  private static boolean sqlOnEngine(String sql) {
    try (DuckDBConnection c = engine.connectionForTest();
        Statement s = c.createStatement()) {
      return s.execute(sql);
    } catch (java.sql.SQLException e) {
      throw new IllegalStateException(e);
    }
  }
}
