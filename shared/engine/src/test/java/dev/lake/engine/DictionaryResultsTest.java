package dev.lake.engine;

import static dev.lake.engine.EngineTestSupport.rows;
import static org.assertj.core.api.Assertions.assertThat;

import dev.lake.core.AdmittedQuery;
import dev.lake.core.QueryExecution;
import dev.lake.core.SnapshotSet;
import java.nio.file.Path;
import java.util.List;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** DuckDB exports ENUMs dictionary-encoded; lake's results carry their values instead. */
class DictionaryResultsTest {
  @TempDir static Path dir;
  static RootAllocator allocator;
  static DuckDbQueryEngine engine;
  static DuckDbSqlAdmission admission;

  @BeforeAll
  static void setUp() {
    allocator = new RootAllocator();
    engine = new DuckDbQueryEngine(EngineConfig.defaults(dir.resolve("spill")), List.of());
    admission = new DuckDbSqlAdmission();
  }

  @AfterAll
  static void tearDown() {
    engine.close();
    admission.close();
    allocator.close();
  }

  @Test
  void enumColumn_isPlannedAndStreamedAsItsStrings() throws Exception {
    // GIVEN a statement whose result has an ENUM column (with NULLs) beside a plain one
    AdmittedQuery q =
        admission.admit(
            "SELECT x, CASE WHEN x % 3 = 0 THEN NULL ELSE CAST(CASE WHEN x % 2 = 0 THEN 'even'"
                + " ELSE 'odd' END AS ENUM('even', 'odd')) END AS parity"
                + " FROM generate_series(1, 100000) t(x) ORDER BY x");

    // WHEN it is planned and executed
    Field planned = engine.plan(q, SnapshotSet.empty()).findField("parity");
    List<List<String>> rows;
    try (QueryExecution e = engine.execute(q, List.of(), SnapshotSet.empty(), allocator)) {
      assertThat(e.reader().getVectorSchemaRoot().getSchema().findField("parity").getDictionary())
          .isNull();
      rows = rows(e.reader());
    }

    // THEN both the planned and the streamed column are plain strings, every batch decoded
    assertThat(planned.getDictionary()).isNull();
    assertThat(planned.getType()).isEqualTo(ArrowType.Utf8.INSTANCE);
    assertThat(rows).hasSize(100_000);
    assertThat(rows.get(0)).containsExactly("1", "odd");
    assertThat(rows.get(1)).containsExactly("2", "even");
    assertThat(rows.get(2)).containsExactly("3", "NULL");
    assertThat(rows.get(99_999)).containsExactly("100000", "even");
    // AND every buffer of the query came back
    assertThat(allocator.getAllocatedMemory()).isZero();
  }
}
