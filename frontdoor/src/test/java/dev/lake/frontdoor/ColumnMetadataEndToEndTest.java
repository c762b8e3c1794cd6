package dev.lake.frontdoor;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
import java.sql.Statement;
import java.sql.Types;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * What the official Flight SQL JDBC driver reports in {@code ResultSetMetaData}: precision and
 * scale (read only from the {@code ARROW:FLIGHT:SQL:*} field metadata), type names, and the table a
 * plain column comes from.
 */
class ColumnMetadataEndToEndTest {
  @TempDir static Path dir;
  static TestLake lake;
  static Connection jdbc;

  /** Every numeric column of TPC-H: table, column, JDBC type, precision, scale. */
  static final List<Object[]> NUMERIC =
      List.of(
          new Object[] {"lineitem", "l_orderkey", Types.BIGINT, 19, 0},
          new Object[] {"lineitem", "l_partkey", Types.BIGINT, 19, 0},
          new Object[] {"lineitem", "l_suppkey", Types.BIGINT, 19, 0},
          new Object[] {"lineitem", "l_linenumber", Types.INTEGER, 10, 0},
          new Object[] {"lineitem", "l_quantity", Types.DECIMAL, 15, 2},
          new Object[] {"lineitem", "l_extendedprice", Types.DECIMAL, 15, 2},
          new Object[] {"lineitem", "l_discount", Types.DECIMAL, 15, 2},
          new Object[] {"lineitem", "l_tax", Types.DECIMAL, 15, 2},
          new Object[] {"orders", "o_orderkey", Types.BIGINT, 19, 0},
          new Object[] {"orders", "o_custkey", Types.BIGINT, 19, 0},
          new Object[] {"orders", "o_totalprice", Types.DECIMAL, 15, 2},
          new Object[] {"orders", "o_shippriority", Types.INTEGER, 10, 0},
          new Object[] {"customer", "c_custkey", Types.BIGINT, 19, 0},
          new Object[] {"customer", "c_nationkey", Types.BIGINT, 19, 0},
          new Object[] {"customer", "c_acctbal", Types.DECIMAL, 15, 2},
          new Object[] {"part", "p_partkey", Types.BIGINT, 19, 0},
          new Object[] {"part", "p_size", Types.INTEGER, 10, 0},
          new Object[] {"part", "p_retailprice", Types.DECIMAL, 15, 2},
          new Object[] {"partsupp", "ps_partkey", Types.BIGINT, 19, 0},
          new Object[] {"partsupp", "ps_suppkey", Types.BIGINT, 19, 0},
          new Object[] {"partsupp", "ps_availqty", Types.INTEGER, 10, 0},
          new Object[] {"partsupp", "ps_supplycost", Types.DECIMAL, 15, 2},
          new Object[] {"supplier", "s_suppkey", Types.BIGINT, 19, 0},
          new Object[] {"supplier", "s_nationkey", Types.BIGINT, 19, 0},
          new Object[] {"supplier", "s_acctbal", Types.DECIMAL, 15, 2},
          new Object[] {"nation", "n_nationkey", Types.BIGINT, 19, 0},
          new Object[] {"nation", "n_regionkey", Types.BIGINT, 19, 0},
          new Object[] {"region", "r_regionkey", Types.BIGINT, 19, 0});

  @BeforeAll
  static void start() throws Exception {
    lake = TestLake.start(dir);
    jdbc = DriverManager.getConnection(lake.jdbcUrl(TestLake.ALICE));
  }

  @AfterAll
  static void stop() throws Exception {
    jdbc.close();
    lake.close();
  }

  @Test
  void resultSetMetaData_reportsPrecisionScaleAndTableOfEveryTpchNumericColumn() throws Exception {
    for (String table : TestLake.TPCH) {
      List<Object[]> expected = NUMERIC.stream().filter(c -> c[0].equals(table)).toList();
      String columns = String.join(", ", expected.stream().map(c -> (String) c[1]).toList());
      try (Statement s = jdbc.createStatement();
          ResultSet rs = s.executeQuery("SELECT " + columns + " FROM lake.tpch." + table)) {
        ResultSetMetaData md = rs.getMetaData();
        List<String> actual = new ArrayList<>();
        List<String> wanted = new ArrayList<>();
        for (int i = 0; i < expected.size(); i++) {
          Object[] c = expected.get(i);
          wanted.add(c[1] + " " + c[2] + " " + c[3] + "," + c[4] + " lake.tpch." + table);
          actual.add(
              md.getColumnName(i + 1)
                  + " "
                  + md.getColumnType(i + 1)
                  + " "
                  + md.getPrecision(i + 1)
                  + ","
                  + md.getScale(i + 1)
                  + " "
                  + md.getCatalogName(i + 1)
                  + "."
                  + md.getSchemaName(i + 1)
                  + "."
                  + md.getTableName(i + 1));
        }
        assertThat(actual).as(table).isEqualTo(wanted);
        assertThat(rs.next()).isTrue();
      }
    }
  }

  @Test
  void preparedStatementMetaData_reportsDecimalBeforeExecution() throws Exception {
    try (PreparedStatement p =
        jdbc.prepareStatement("SELECT l_extendedprice FROM lake.tpch.lineitem LIMIT 1")) {
      ResultSetMetaData md = p.getMetaData();

      assertThat(md.getColumnType(1)).isEqualTo(Types.DECIMAL);
      assertThat(md.getPrecision(1)).isEqualTo(15);
      assertThat(md.getScale(1)).isEqualTo(2);
      assertThat(md.getColumnTypeName(1)).isEqualTo("DECIMAL");
    }
  }

  @Test
  void computedColumns_haveTypesButNoTable_renamedColumnsKeepTheirTable() throws Exception {
    try (Statement s = jdbc.createStatement();
        ResultSet rs =
            s.executeQuery(
                "SELECT sum(l_extendedprice) AS l_extendedprice, l_returnflag AS flag"
                    + " FROM lake.tpch.lineitem GROUP BY l_returnflag")) {
      ResultSetMetaData md = rs.getMetaData();

      assertThat(md.getColumnType(1)).isEqualTo(Types.DECIMAL);
      assertThat(md.getPrecision(1)).isEqualTo(38);
      assertThat(md.getScale(1)).isEqualTo(2);
      assertThat(md.getTableName(1)).isNullOrEmpty();
      assertThat(md.getTableName(2)).isEqualTo("lineitem"); // a renamed column keeps its table
      assertThat(md.getColumnTypeName(2)).isEqualTo("VARCHAR");
      assertThat(rs.next()).isTrue();
    }
  }
}
