package dev.lake.frontdoor;

import static dev.lake.frontdoor.TestLake.bearer;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.math.BigDecimal;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
import java.sql.SQLException;
import java.sql.Statement;
import java.sql.Types;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.apache.arrow.adbc.core.AdbcConnection;
import org.apache.arrow.adbc.core.AdbcDatabase;
import org.apache.arrow.adbc.core.AdbcDriver;
import org.apache.arrow.adbc.core.AdbcStatement;
import org.apache.arrow.adbc.driver.flightsql.FlightSqlDriverFactory;
import org.apache.arrow.flight.FlightInfo;
import org.apache.arrow.flight.FlightRuntimeException;
import org.apache.arrow.flight.FlightStream;
import org.apache.arrow.flight.sql.FlightSqlClient;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.ipc.ArrowReader;
import org.apache.arrow.vector.types.pojo.Schema;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * SQL that BI tools and analysts write, through the official JDBC driver, the Flight SQL client and
 * ADBC: fully qualified column references, unnamed structs, unsigned integers, empty results,
 * DESCRIBE/SUMMARIZE and the refusals that name what works.
 */
class SqlCompatibilityEndToEndTest {
  @TempDir static Path dir;
  static TestLake lake;
  static FlightSqlClient flight;
  static Connection reference;

  @BeforeAll
  static void start() throws Exception {
    lake = TestLake.start(dir);
    flight = lake.client();
    reference = lake.referenceDuckDb();
  }

  @AfterAll
  static void stop() throws Exception {
    reference.close();
    flight.close();
    lake.close();
  }

  private static Connection jdbc() throws SQLException {
    return DriverManager.getConnection(lake.jdbcUrl(TestLake.ALICE));
  }

  /** Every row of {@code sql} through JDBC, each value as {@code getString}. */
  static List<List<String>> jdbcRows(String sql) throws SQLException {
    try (Connection c = jdbc();
        Statement s = c.createStatement();
        ResultSet rs = s.executeQuery(sql)) {
      return strings(rs);
    }
  }

  static List<List<String>> strings(ResultSet rs) throws SQLException {
    List<List<String>> out = new ArrayList<>();
    int n = rs.getMetaData().getColumnCount();
    while (rs.next()) {
      List<String> row = new ArrayList<>();
      for (int i = 1; i <= n; i++) {
        row.add(rs.getString(i));
      }
      out.add(row);
    }
    return out;
  }

  /** The schema and every row of {@code sql} through the Flight SQL client. */
  record FlightResult(Schema schema, List<List<String>> rows) {}

  static FlightResult flightRows(String sql) throws Exception {
    FlightInfo info = flight.execute(sql, bearer(TestLake.ALICE));
    List<List<String>> rows = new ArrayList<>();
    try (FlightStream stream =
        flight.getStream(info.getEndpoints().get(0).getTicket(), bearer(TestLake.ALICE))) {
      while (stream.next()) {
        rows.addAll(values(stream.getRoot()));
      }
      return new FlightResult(stream.getSchema(), rows);
    }
  }

  static List<List<String>> values(VectorSchemaRoot root) {
    List<List<String>> rows = new ArrayList<>();
    for (int r = 0; r < root.getRowCount(); r++) {
      List<String> row = new ArrayList<>();
      for (FieldVector v : root.getFieldVectors()) {
        Object o = v.getObject(r);
        row.add(o == null ? null : o.toString());
      }
      rows.add(row);
    }
    return rows;
  }

  static String flightError(String sql) {
    try {
      flightRows(sql);
    } catch (FlightRuntimeException e) {
      return e.getMessage();
    } catch (Exception e) {
      throw new AssertionError(e);
    }
    throw new AssertionError("query succeeded: " + sql);
  }

  @Test
  void fullyQualifiedColumnReferences_bindToTheTable() throws Exception {
    // GIVEN columns qualified by catalog.namespace.table and by namespace.table (Metabase's form)
    String sql =
        "SELECT lake.tpch.nation.n_name, tpch.nation.n_regionkey FROM lake.tpch.nation"
            + " WHERE lake.tpch.nation.n_nationkey < 2 ORDER BY tpch.nation.n_nationkey";

    // WHEN it runs through JDBC and through the Flight SQL client
    List<List<String>> viaJdbc = jdbcRows(sql);
    FlightResult viaFlight = flightRows(sql);

    // THEN both bind the columns to the table and answer as DuckDB does
    List<List<String>> expected = List.of(List.of("ALGERIA", "0"), List.of("ARGENTINA", "1"));
    assertThat(viaJdbc).isEqualTo(expected);
    assertThat(viaFlight.rows()).isEqualTo(expected);
    assertThat(viaFlight.schema().getFields().get(0).getName()).isEqualTo("n_name");
  }

  @Test
  void qualifiedColumns_inJoinsAndGroupBy_bindToTheirTables() throws Exception {
    // GIVEN a join with both tables' columns fully qualified, grouped and ordered by them
    String sql =
        "SELECT lake.tpch.region.r_name, count(lake.tpch.nation.n_nationkey) AS n"
            + " FROM lake.tpch.nation JOIN lake.tpch.region"
            + " ON lake.tpch.nation.n_regionkey = lake.tpch.region.r_regionkey"
            + " GROUP BY lake.tpch.region.r_name ORDER BY lake.tpch.region.r_name";

    // WHEN it runs through JDBC
    List<List<String>> rows = jdbcRows(sql);

    // THEN every region has its five nations
    assertThat(rows).hasSize(5).allSatisfy(r -> assertThat(r.get(1)).isEqualTo("5"));
    assertThat(rows.get(0).get(0)).isEqualTo("AFRICA");
  }

  @Test
  void unnamedStructs_getFieldNames_f1_f2() throws Exception {
    // GIVEN a row(), a tuple and a list_zip in one result
    String sql =
        "SELECT row(n_nationkey, n_name) AS r, (1, 'a') AS t, list_zip([1, 2], ['x', 'y']) AS z"
            + " FROM lake.tpch.nation WHERE n_nationkey = 0";

    // WHEN it runs through the Flight SQL client and JDBC
    FlightResult viaFlight = flightRows(sql);
    List<List<String>> viaJdbc = jdbcRows(sql);

    // THEN the struct fields are named f1, f2 and carry the values
    assertThat(viaFlight.schema().findField("r").getChildren())
        .extracting(f -> f.getName())
        .containsExactly("f1", "f2");
    assertThat(viaFlight.rows())
        .containsExactly(
            List.of(
                "{\"f1\":0,\"f2\":\"ALGERIA\"}",
                "{\"f1\":1,\"f2\":\"a\"}",
                "[{\"f1\":1,\"f2\":\"x\"},{\"f1\":2,\"f2\":\"y\"}]"));
    assertThat(viaJdbc).hasSize(1);
    assertThat(viaJdbc.get(0).get(0)).contains("ALGERIA").contains("f1");
  }

  @Test
  void unsignedIntegers_areExact_inJdbcFlightAndAdbc() throws Exception {
    // GIVEN unsigned values past the signed maximum of their width, and hash()
    String sql =
        "SELECT CAST(200 AS UTINYINT) AS t, CAST(40000 AS USMALLINT) AS s,"
            + " CAST(4000000000 AS UINTEGER) AS i, CAST(18446744073709551615 AS UBIGINT) AS b,"
            + " hash(n_name) AS h FROM lake.tpch.nation WHERE n_nationkey = 0";
    String expectedHash;
    try (Statement s = reference.createStatement();
        ResultSet rs =
            s.executeQuery(
                "SELECT CAST(hash(n_name) AS VARCHAR) FROM lake.tpch.nation WHERE n_nationkey = 0")) {
      rs.next();
      expectedHash = rs.getString(1);
    }

    // WHEN it runs through JDBC
    try (Connection c = jdbc();
        Statement s = c.createStatement();
        ResultSet rs = s.executeQuery(sql)) {
      ResultSetMetaData md = rs.getMetaData();
      // THEN each is the next wider signed type (UBIGINT a DECIMAL(20,0)) with the exact value
      assertThat(md.getColumnType(1)).isEqualTo(Types.SMALLINT);
      assertThat(md.getColumnType(2)).isEqualTo(Types.INTEGER);
      assertThat(md.getColumnType(3)).isEqualTo(Types.BIGINT);
      assertThat(md.getColumnType(4)).isEqualTo(Types.DECIMAL);
      assertThat(rs.next()).isTrue();
      assertThat(rs.getInt(1)).isEqualTo(200);
      assertThat(rs.getInt(2)).isEqualTo(40000);
      assertThat(rs.getLong(3)).isEqualTo(4_000_000_000L);
      assertThat(rs.getBigDecimal(4)).isEqualByComparingTo(new BigDecimal("18446744073709551615"));
      assertThat(rs.getBigDecimal(5).toPlainString()).isEqualTo(expectedHash);
    }
    // AND the same through the Flight SQL client
    assertThat(flightRows(sql).rows().get(0))
        .containsExactly("200", "40000", "4000000000", "18446744073709551615", expectedHash);
    // AND through ADBC
    Map<String, Object> params = new HashMap<>();
    AdbcDriver.PARAM_URI.set(params, "grpc+tcp://127.0.0.1:" + lake.port());
    params.put("adbc.flight.sql.rpc.call_header.authorization", "Bearer " + TestLake.ALICE);
    try (AdbcDatabase db = new FlightSqlDriverFactory().getDriver(lake.allocator).open(params);
        AdbcConnection c = db.connect();
        AdbcStatement s = c.createStatement()) {
      s.setSqlQuery(sql);
      try (AdbcStatement.QueryResult result = s.executeQuery()) {
        ArrowReader reader = result.getReader();
        List<List<String>> rows = new ArrayList<>();
        while (reader.loadNextBatch()) {
          rows.addAll(values(reader.getVectorSchemaRoot()));
        }
        assertThat(rows)
            .containsExactly(
                List.of("200", "40000", "4000000000", "18446744073709551615", expectedHash));
      }
    }
  }

  /**
   * An empty result through a JDBC {@code PreparedStatement} names each column once: the driver
   * keeps the columns of the prepared statement's schema. (A plain {@code Statement} does not; see
   * {@link JdbcDriverBugsTest}.)
   */
  @Test
  void emptyResult_hasEachColumnOnce_inPreparedStatementAndFlightSql() throws Exception {
    // GIVEN a statement that matches no row
    String sql = "SELECT n_nationkey, n_name FROM lake.tpch.nation WHERE n_nationkey < 0";

    // WHEN it runs through a JDBC PreparedStatement
    try (Connection c = jdbc();
        PreparedStatement ps = c.prepareStatement(sql)) {
      // THEN the metadata names each column once, before and after execution
      assertThat(columns(ps.getMetaData())).containsExactly("n_nationkey", "n_name");
      try (ResultSet rs = ps.executeQuery()) {
        assertThat(columns(rs.getMetaData())).containsExactly("n_nationkey", "n_name");
        assertThat(rs.getMetaData().getColumnType(1)).isEqualTo(Types.BIGINT);
        assertThat(rs.next()).isFalse();
      }
    }
    // AND the Flight SQL client sees the schema and no rows
    FlightResult viaFlight = flightRows(sql);
    assertThat(viaFlight.rows()).isEmpty();
    assertThat(viaFlight.schema().getFields())
        .extracting(f -> f.getName())
        .containsExactly("n_nationkey", "n_name");
  }

  static List<String> columns(ResultSetMetaData md) throws SQLException {
    List<String> names = new ArrayList<>();
    for (int i = 1; i <= md.getColumnCount(); i++) {
      names.add(md.getColumnName(i));
    }
    return names;
  }

  @Test
  void describeAndSummarize_ofTablesAndQueries_work() throws Exception {
    // WHEN DESCRIBE and SUMMARIZE run through JDBC
    List<List<String>> describe = jdbcRows("DESCRIBE lake.tpch.nation");
    List<List<String>> describeQuery =
        jdbcRows("DESCRIBE SELECT n_name, n_nationkey + 1 AS k FROM lake.tpch.nation");
    List<List<String>> summarize = jdbcRows("SUMMARIZE SELECT n_nationkey FROM lake.tpch.nation");

    // THEN they describe the columns and summarize the rows
    assertThat(describe).extracting(r -> r.get(0)).contains("n_nationkey", "n_name");
    assertThat(describeQuery)
        .extracting(r -> r.get(0) + " " + r.get(1))
        .containsExactly("n_name VARCHAR", "k BIGINT");
    assertThat(summarize).hasSize(1);
    assertThat(summarize.get(0).get(0)).isEqualTo("n_nationkey");
    assertThat(summarize.get(0).get(2)).isEqualTo("0"); // min
    assertThat(summarize.get(0).get(3)).isEqualTo("24"); // max
    // AND through the Flight SQL client
    assertThat(flightRows("SUMMARIZE lake.tpch.region").rows()).hasSize(3);
  }

  @Test
  void refusals_nameWhatWorks_andTheNextQueryRuns() throws Exception {
    // WHEN a dynamic PIVOT and SHOW TABLES run
    String pivot = flightError("PIVOT lake.tpch.nation ON n_regionkey USING count(*)");
    String show = flightError("SHOW TABLES");

    // THEN the messages name the form that works
    assertThat(pivot)
        .contains("PIVOT without an IN list is not allowed")
        .contains("PIVOT t ON col IN ('a', 'b') USING sum(v)")
        .endsWith("after listing them with SELECT DISTINCT col FROM t ORDER BY 1");
    assertThat(show).contains("SHOW is not allowed").contains("DatabaseMetaData.getTables");
    assertThatThrownBy(() -> jdbcRows("SHOW TABLES"))
        .isInstanceOf(SQLException.class)
        .hasStackTraceContaining("DESCRIBE catalog.namespace.table");
    // AND the PIVOT with an IN list works
    assertThat(
            jdbcRows(
                "PIVOT (SELECT n_regionkey FROM lake.tpch.nation)"
                    + " ON n_regionkey IN (0, 1) USING count(*)"))
        .containsExactly(List.of("5", "5"));
  }

  /** The statements of {@code bi-queries.sql}: blocks ending with ';', comment lines dropped. */
  static List<String> corpus() throws Exception {
    String text;
    try (var in = SqlCompatibilityEndToEndTest.class.getResourceAsStream("bi-queries.sql")) {
      text = new String(in.readAllBytes(), java.nio.charset.StandardCharsets.UTF_8);
    }
    List<String> statements = new ArrayList<>();
    StringBuilder current = new StringBuilder();
    for (String line : text.split("\n")) {
      if (line.startsWith("--")) {
        continue;
      }
      current.append(line).append('\n');
      if (line.stripTrailing().endsWith(";")) {
        String sql = current.toString().strip();
        statements.add(sql.substring(0, sql.length() - 1));
        current.setLength(0);
      }
    }
    return statements;
  }

  @org.junit.jupiter.api.TestFactory
  Stream<org.junit.jupiter.api.DynamicTest> biCorpus_answersAsDuckDbDoesOverTheSameRows()
      throws Exception {
    List<String> statements = corpus();
    assertThat(statements).hasSizeGreaterThan(25);
    return statements.stream()
        .map(
            sql ->
                org.junit.jupiter.api.DynamicTest.dynamicTest(
                    sql.lines().findFirst().orElse(sql),
                    () -> {
                      try (Connection c = jdbc()) {
                        ClientsEndToEndTest.assertSameAnswer(c, reference, sql);
                      }
                    }));
  }
}
