package dev.lake.engine;

import static dev.lake.engine.EngineTestSupport.rows;
import static org.assertj.core.api.Assertions.assertThat;

import dev.lake.core.AdmittedQuery;
import dev.lake.core.QueryExecution;
import dev.lake.core.SnapshotSet;
import java.nio.file.Path;
import java.util.List;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.types.pojo.Schema;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Results clients cannot read as DuckDB exports them are reshaped; see {@link ResultShape}. */
class ResultShapeTest {
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

  /** The planned schema and, executed without planning first, the streamed schema and rows. */
  record Result(Schema planned, Schema streamed, List<List<String>> rows) {}

  static Result run(String sql) throws Exception {
    AdmittedQuery q = admission.admit(sql);
    // execution first: it must shape the result even when nobody planned the statement
    try (QueryExecution e = engine.execute(q, List.of(), SnapshotSet.empty(), allocator)) {
      Schema streamed = e.reader().getVectorSchemaRoot().getSchema();
      List<List<String>> rows = rows(e.reader());
      return new Result(engine.plan(q, SnapshotSet.empty()), streamed, rows);
    }
  }

  @Test
  void unnamedStructs_atAnyDepth_getFieldNames_andNullsStayNull() throws Exception {
    // GIVEN a row(), a NULL row, a list of unnamed structs inside one, and a map of them
    Result r =
        run(
            "SELECT CASE WHEN x = 1 THEN NULL ELSE row(x, [row(x, 'a')]) END AS n,"
                + " list_zip([x], ['b']) AS z, MAP {'k': (x, x)} AS m, 7 AS n"
                + " FROM range(3) t(x) ORDER BY x DESC");

    // THEN every unnamed field is named f1, f2, ... in the plan and the stream alike
    assertThat(r.streamed()).isEqualTo(r.planned());
    assertThat(r.streamed().toString())
        .isEqualTo(
            "Schema<n: Struct<f1: Int(64, true), f2: List<l: Struct<f1: Int(64, true), f2: Utf8>>>,"
                + " z: List<l: Struct<f1: Int(64, true), f2: Utf8>>, m: Map(false)<entries:"
                + " Struct<key: Utf8 not null, value: Struct<f1: Int(64, true), f2: Int(64, true)>>"
                + " not null>, n: Int(32, true)>");
    // AND the values, the NULL and the statement's order are kept
    assertThat(r.rows())
        .containsExactly(
            List.of(
                "{\"f1\":2,\"f2\":[{\"f1\":2,\"f2\":\"a\"}]}",
                "[{\"f1\":2,\"f2\":\"b\"}]",
                "[{\"key\":\"k\",\"value\":{\"f1\":2,\"f2\":2}}]",
                "7"),
            List.of(
                "NULL",
                "[{\"f1\":1,\"f2\":\"b\"}]",
                "[{\"key\":\"k\",\"value\":{\"f1\":1,\"f2\":1}}]",
                "7"),
            List.of(
                "{\"f1\":0,\"f2\":[{\"f1\":0,\"f2\":\"a\"}]}",
                "[{\"f1\":0,\"f2\":\"b\"}]",
                "[{\"key\":\"k\",\"value\":{\"f1\":0,\"f2\":0}}]",
                "7"));
  }

  @Test
  void unsignedIntegers_widenToTheNextSignedType_exactly() throws Exception {
    // GIVEN each unsigned width at its maximum, nested ones and hash()
    Result r =
        run(
            "SELECT CAST(255 AS UTINYINT) AS a, CAST(65535 AS USMALLINT) AS b,"
                + " CAST(4294967295 AS UINTEGER) AS c, CAST(18446744073709551615 AS UBIGINT) AS d,"
                + " [CAST(65535 AS USMALLINT)] AS l, {'u': CAST(255 AS UTINYINT)} AS s,"
                + " hash('lake') = CAST(hash('lake') AS DECIMAL(20,0)) AS same");

    // THEN the types are SMALLINT, INTEGER, BIGINT, DECIMAL(20,0) and the values exact
    assertThat(r.streamed()).isEqualTo(r.planned());
    assertThat(r.streamed().toString())
        .isEqualTo(
            "Schema<a: Int(16, true), b: Int(32, true), c: Int(64, true), d: Decimal(20, 0, 128),"
                + " l: List<l: Int(32, true)>, s: Struct<u: Int(16, true)>, same: Bool>");
    assertThat(r.rows())
        .containsExactly(
            List.of(
                "255",
                "65535",
                "4294967295",
                "18446744073709551615",
                "[65535]",
                "{\"u\":255}",
                "true"));
  }

  @Test
  void plainResults_andExplain_areNotWrapped() throws Exception {
    // GIVEN a statement whose result clients read as it is, with duplicate column names
    Result r = run("SELECT 1 AS a, 'x' AS a, {'k': 1} AS s");

    // THEN it streams as DuckDB produced it
    assertThat(r.streamed().toString())
        .isEqualTo("Schema<a: Int(32, true), a: Utf8, s: Struct<k: Int(32, true)>>");
    assertThat(r.rows()).containsExactly(List.of("1", "x", "{\"k\":1}"));
    // AND EXPLAIN of a statement that needs a shape still explains the statement itself
    assertThat(run("EXPLAIN SELECT row(1, 2)").rows()).isNotEmpty();
  }
}
