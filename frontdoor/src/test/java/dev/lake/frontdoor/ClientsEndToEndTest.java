package dev.lake.frontdoor;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.math.BigDecimal;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DatabaseMetaData;
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
import java.util.Locale;
import java.util.Map;
import org.apache.arrow.adbc.core.AdbcConnection;
import org.apache.arrow.adbc.core.AdbcDatabase;
import org.apache.arrow.adbc.core.AdbcDriver;
import org.apache.arrow.adbc.core.AdbcException;
import org.apache.arrow.adbc.core.AdbcStatement;
import org.apache.arrow.adbc.driver.flightsql.FlightSqlDriverFactory;
import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.ipc.ArrowReader;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The official Flight SQL JDBC driver and ADBC Java against a real in-process lake. */
class ClientsEndToEndTest {
  @TempDir static Path dir;
  static TestLake lake;
  static Connection reference;

  static final String Q1 =
      """
      SELECT l_returnflag, l_linestatus, sum(l_quantity) AS sum_qty,
             sum(l_extendedprice) AS sum_base_price,
             sum(l_extendedprice * (1 - l_discount)) AS sum_disc_price,
             sum(l_extendedprice * (1 - l_discount) * (1 + l_tax)) AS sum_charge,
             avg(l_quantity) AS avg_qty, avg(l_extendedprice) AS avg_price,
             avg(l_discount) AS avg_disc, count(*) AS count_order
      FROM lake.tpch.lineitem
      WHERE l_shipdate <= DATE '1998-12-01' - INTERVAL '90' DAY
      GROUP BY l_returnflag, l_linestatus
      ORDER BY l_returnflag, l_linestatus""";

  static final String Q3 =
      """
      SELECT l_orderkey, sum(l_extendedprice * (1 - l_discount)) AS revenue,
             o_orderdate, o_shippriority
      FROM lake.tpch.customer, lake.tpch.orders, lake.tpch.lineitem
      WHERE c_mktsegment = 'BUILDING' AND c_custkey = o_custkey AND l_orderkey = o_orderkey
        AND o_orderdate < DATE '1995-03-15' AND l_shipdate > DATE '1995-03-15'
      GROUP BY l_orderkey, o_orderdate, o_shippriority
      ORDER BY revenue DESC, o_orderdate, l_orderkey
      LIMIT 10""";

  static final String Q6 =
      """
      SELECT sum(l_extendedprice * l_discount) AS revenue
      FROM lake.tpch.lineitem
      WHERE l_shipdate >= DATE '1994-01-01' AND l_shipdate < DATE '1995-01-01'
        AND l_discount BETWEEN 0.05 AND 0.07 AND l_quantity < 24""";

  @BeforeAll
  static void start() throws Exception {
    lake = TestLake.start(dir);
    reference = lake.referenceDuckDb();
  }

  @AfterAll
  static void stop() throws Exception {
    reference.close();
    lake.close();
  }

  private static Connection jdbc(String token) throws SQLException {
    return DriverManager.getConnection(lake.jdbcUrl(token));
  }

  /** Rows with values normalized so two drivers' answers compare exactly. */
  static List<List<String>> rows(ResultSet rs) throws SQLException {
    List<List<String>> out = new ArrayList<>();
    int n = rs.getMetaData().getColumnCount();
    while (rs.next()) {
      List<String> row = new ArrayList<>();
      for (int i = 1; i <= n; i++) {
        row.add(normalize(rs.getObject(i)));
      }
      out.add(row);
    }
    return out;
  }

  static String normalize(Object v) {
    if (v == null) {
      return "NULL";
    }
    if (v instanceof Double || v instanceof Float) {
      return String.format(Locale.ROOT, "%.9e", ((Number) v).doubleValue());
    }
    if (v instanceof BigDecimal d) {
      return d.stripTrailingZeros().toPlainString();
    }
    if (v instanceof Number n) {
      return Long.toString(n.longValue());
    }
    return v.toString();
  }

  /**
   * WHEN {@code sql} runs through lake ({@code viaLake}) and through a plain DuckDB over the same
   * rows THEN the answers are equal, row by row, and not empty.
   */
  static void assertSameAnswer(Connection viaLake, Connection reference, String sql)
      throws SQLException {
    List<List<String>> answer;
    try (Statement s = viaLake.createStatement();
        ResultSet rs = s.executeQuery(sql)) {
      answer = rows(rs);
    }
    List<List<String>> expected;
    try (Statement s = reference.createStatement();
        ResultSet rs = s.executeQuery(sql)) {
      expected = rows(rs);
    }
    assertThat(answer).as(sql).isNotEmpty().isEqualTo(expected);
  }

  @Test
  void jdbc_tpchQueries_equalDuckDbsOwnAnswer() throws Exception {
    try (Connection c = jdbc(TestLake.ALICE)) {
      for (String q : List.of(Q1, Q3, Q6)) {
        assertSameAnswer(c, reference, q);
      }
    }
  }

  @Test
  void jdbc_returnsTypedValues_includingNulls() throws Exception {
    String sql =
        """
        SELECT n_nationkey, n_name, CAST(n_nationkey AS DECIMAL(10,2)) + 0.25 AS amount,
               DATE '1995-01-01' + CAST(n_nationkey AS INTEGER) AS day,
               TIMESTAMP '2020-01-01 10:00:00' AS at,
               CASE WHEN n_nationkey % 2 = 0 THEN NULL ELSE n_regionkey END AS maybe
        FROM lake.tpch.nation ORDER BY n_nationkey LIMIT 2""";
    try (Connection c = jdbc(TestLake.ALICE);
        Statement s = c.createStatement();
        ResultSet rs = s.executeQuery(sql)) {
      ResultSetMetaData md = rs.getMetaData();
      assertThat(md.getColumnType(2)).isEqualTo(Types.VARCHAR);
      assertThat(md.getColumnType(3)).isEqualTo(Types.DECIMAL);
      assertThat(md.getColumnType(4)).isEqualTo(Types.DATE);
      assertThat(md.getColumnType(5)).isEqualTo(Types.TIMESTAMP);
      assertThat(rs.next()).isTrue();
      assertThat(rs.getLong(1)).isZero();
      assertThat(rs.getString(2)).isEqualTo("ALGERIA");
      assertThat(rs.getBigDecimal(3)).isEqualByComparingTo("0.25");
      assertThat(rs.getDate(4).toString()).isEqualTo("1995-01-01");
      assertThat(rs.getTimestamp(5).toString()).isEqualTo("2020-01-01 10:00:00.0");
      assertThat(rs.getObject(6)).isNull();
      assertThat(rs.next()).isTrue();
      assertThat(rs.getString(2)).isEqualTo("ARGENTINA");
      assertThat(rs.getLong(6)).isEqualTo(1L);
      assertThat(rs.next()).isFalse();
    }
  }

  @Test
  void jdbc_preparedStatement_bindsParameters() throws Exception {
    try (Connection c = jdbc(TestLake.ALICE);
        PreparedStatement ps =
            c.prepareStatement(
                "SELECT count(*) FROM lake.tpch.nation WHERE n_regionkey = ? AND n_name <> ?")) {
      for (int region = 0; region < 2; region++) {
        ps.setLong(1, region);
        ps.setString(2, "nobody");
        try (ResultSet rs = ps.executeQuery()) {
          assertThat(rs.next()).isTrue();
          assertThat(rs.getLong(1)).isEqualTo(5L);
        }
      }
    }
  }

  @Test
  void jdbc_rejectsWrongToken() {
    assertThatThrownBy(
            () -> {
              try (Connection c = jdbc("not-a-token");
                  Statement s = c.createStatement();
                  ResultSet rs = s.executeQuery("SELECT 1")) {
                rs.next();
              }
            })
        .isInstanceOf(SQLException.class)
        .hasStackTraceContaining("Unknown bearer token");
  }

  @Test
  void jdbc_metadata_listsOnlyGrantedTables() throws Exception {
    try (Connection c = jdbc(TestLake.ALICE)) {
      DatabaseMetaData md = c.getMetaData();
      try (ResultSet rs = md.getCatalogs()) {
        assertThat(rows(rs)).containsExactly(List.of("lake"));
      }
      try (ResultSet rs = md.getSchemas()) {
        assertThat(rows(rs)).contains(List.of("tpch", "lake"));
      }
      List<String> tables = new ArrayList<>();
      try (ResultSet rs = md.getTables(null, null, "%", null)) {
        while (rs.next()) {
          tables.add(rs.getString("TABLE_SCHEM") + "." + rs.getString("TABLE_NAME"));
        }
      }
      assertThat(tables).containsAll(TestLake.TPCH.stream().map(t -> "tpch." + t).toList());
      List<String> columns = new ArrayList<>();
      try (ResultSet rs = md.getColumns(null, "tpch", "nation", "%")) {
        while (rs.next()) {
          columns.add(rs.getString("COLUMN_NAME"));
        }
      }
      assertThat(columns).containsExactly("n_nationkey", "n_name", "n_regionkey", "n_comment");
    }
    // AND a principal granted one table sees exactly that table
    try (Connection c = jdbc(TestLake.DAVE);
        ResultSet rs = c.getMetaData().getTables(null, null, "%", null)) {
      List<String> tables = new ArrayList<>();
      while (rs.next()) {
        tables.add(rs.getString("TABLE_NAME"));
      }
      assertThat(tables).containsExactly("nation");
    }
  }

  private static AdbcDatabase adbc(String token) throws AdbcException {
    Map<String, Object> params = new HashMap<>();
    AdbcDriver.PARAM_URI.set(params, "grpc+tcp://127.0.0.1:" + lake.port());
    params.put("adbc.flight.sql.rpc.call_header.authorization", "Bearer " + token);
    return new FlightSqlDriverFactory().getDriver(lake.allocator).open(params);
  }

  @Test
  void adbc_runsQuery_withBearerToken() throws Exception {
    try (AdbcDatabase db = adbc(TestLake.ALICE);
        AdbcConnection c = db.connect();
        AdbcStatement s = c.createStatement()) {
      s.setSqlQuery(
          "SELECT n_regionkey, count(*) AS n FROM lake.tpch.nation GROUP BY 1 ORDER BY 1");
      long total = 0;
      int groups = 0;
      try (AdbcStatement.QueryResult result = s.executeQuery()) {
        ArrowReader reader = result.getReader();
        while (reader.loadNextBatch()) {
          VectorSchemaRoot root = reader.getVectorSchemaRoot();
          BigIntVector n = (BigIntVector) root.getVector("n");
          for (int i = 0; i < root.getRowCount(); i++) {
            total += n.get(i);
            groups++;
          }
        }
      }
      assertThat(groups).isEqualTo(5);
      assertThat(total).isEqualTo(25);
    }
  }

  @Test
  void adbc_rejectsWrongToken() {
    assertThatThrownBy(
            () -> {
              try (AdbcDatabase db = adbc("wrong");
                  AdbcConnection c = db.connect();
                  AdbcStatement s = c.createStatement()) {
                s.setSqlQuery("SELECT 1");
                s.executeQuery().close();
              }
            })
        .isInstanceOf(AdbcException.class)
        .hasMessageContaining("Unknown bearer token");
  }
}
