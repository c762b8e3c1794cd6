package dev.lake.engine;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.lake.core.AdmittedQuery;
import dev.lake.core.ErrorCode;
import dev.lake.core.LakeException;
import dev.lake.core.TableRef;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

class DuckDbSqlAdmissionTest {
  static DuckDbSqlAdmission admission;

  @BeforeAll
  static void setUp() {
    admission = new DuckDbSqlAdmission();
  }

  @AfterAll
  static void tearDown() {
    admission.close();
  }

  static Stream<Arguments> hostile() {
    return Stream.of(
        Arguments.of(
            "CREATE TABLE x AS SELECT 1",
            ErrorCode.SQL_NOT_ALLOWED,
            "DDL (CREATE) is not allowed: only SELECT, WITH ... SELECT, VALUES and EXPLAIN may run"),
        Arguments.of(
            "DROP TABLE lake.tpch.nation",
            ErrorCode.SQL_NOT_ALLOWED,
            "DDL (DROP) is not allowed: only SELECT, WITH ... SELECT, VALUES and EXPLAIN may run"),
        Arguments.of(
            "ALTER TABLE lake.tpch.nation ADD COLUMN y INT",
            ErrorCode.SQL_NOT_ALLOWED,
            "DDL (ALTER) is not allowed: only SELECT, WITH ... SELECT, VALUES and EXPLAIN may run"),
        Arguments.of(
            "INSERT INTO lake.tpch.nation VALUES (1)",
            ErrorCode.SQL_NOT_ALLOWED,
            "DML (INSERT) is not allowed: only SELECT, WITH ... SELECT, VALUES and EXPLAIN may run"),
        Arguments.of(
            "UPDATE lake.tpch.nation SET n_name = 'x'",
            ErrorCode.SQL_NOT_ALLOWED,
            "DML (UPDATE) is not allowed: only SELECT, WITH ... SELECT, VALUES and EXPLAIN may run"),
        Arguments.of(
            "DELETE FROM lake.tpch.nation",
            ErrorCode.SQL_NOT_ALLOWED,
            "DML (DELETE) is not allowed: only SELECT, WITH ... SELECT, VALUES and EXPLAIN may run"),
        Arguments.of(
            "SET threads = 64",
            ErrorCode.SQL_NOT_ALLOWED,
            "SET is not allowed: only SELECT, WITH ... SELECT, VALUES and EXPLAIN may run"),
        Arguments.of(
            "RESET threads",
            ErrorCode.SQL_NOT_ALLOWED,
            "RESET is not allowed: only SELECT, WITH ... SELECT, VALUES and EXPLAIN may run"),
        Arguments.of(
            "PRAGMA database_list",
            ErrorCode.SQL_NOT_ALLOWED,
            "PRAGMA is not allowed: only SELECT, WITH ... SELECT, VALUES and EXPLAIN may run"),
        Arguments.of(
            "ATTACH 'evil.db' AS evil",
            ErrorCode.SQL_NOT_ALLOWED,
            "ATTACH is not allowed: only SELECT, WITH ... SELECT, VALUES and EXPLAIN may run"),
        Arguments.of(
            "DETACH evil",
            ErrorCode.SQL_NOT_ALLOWED,
            "DETACH is not allowed: only SELECT, WITH ... SELECT, VALUES and EXPLAIN may run"),
        Arguments.of(
            "USE lake.tpch",
            ErrorCode.SQL_NOT_ALLOWED,
            "USE is not allowed: only SELECT, WITH ... SELECT, VALUES and EXPLAIN may run"),
        Arguments.of(
            "COPY lake.tpch.nation TO '/tmp/x.csv'",
            ErrorCode.SQL_NOT_ALLOWED,
            "COPY is not allowed: only SELECT, WITH ... SELECT, VALUES and EXPLAIN may run"),
        Arguments.of(
            "EXPORT DATABASE '/tmp/x'",
            ErrorCode.SQL_NOT_ALLOWED,
            "EXPORT is not allowed: only SELECT, WITH ... SELECT, VALUES and EXPLAIN may run"),
        Arguments.of(
            "IMPORT DATABASE '/tmp/x'",
            ErrorCode.SQL_NOT_ALLOWED,
            "IMPORT is not allowed: only SELECT, WITH ... SELECT, VALUES and EXPLAIN may run"),
        Arguments.of(
            "INSTALL httpfs",
            ErrorCode.SQL_NOT_ALLOWED,
            "INSTALL is not allowed: only SELECT, WITH ... SELECT, VALUES and EXPLAIN may run"),
        Arguments.of(
            "LOAD httpfs",
            ErrorCode.SQL_NOT_ALLOWED,
            "LOAD is not allowed: only SELECT, WITH ... SELECT, VALUES and EXPLAIN may run"),
        Arguments.of(
            "CALL pragma_version()",
            ErrorCode.SQL_NOT_ALLOWED,
            "CALL is not allowed: only SELECT, WITH ... SELECT, VALUES and EXPLAIN may run"),
        Arguments.of(
            "CREATE SECRET s (TYPE s3, KEY_ID 'a', SECRET 'b')",
            ErrorCode.SQL_NOT_ALLOWED,
            "CREATE SECRET is not allowed: only SELECT, WITH ... SELECT, VALUES and EXPLAIN may run"),
        Arguments.of(
            "SELECT 1; SELECT 2",
            ErrorCode.INVALID_SQL,
            "Exactly one statement is allowed, found 2"),
        Arguments.of(
            "SELECT 1; DROP TABLE lake.tpch.nation",
            ErrorCode.SQL_NOT_ALLOWED,
            "Only one read-only statement is allowed; this text holds a statement that is not a SELECT"),
        Arguments.of(
            "SELECT * FROM read_parquet('s3://bucket/x.parquet')",
            ErrorCode.SQL_NOT_ALLOWED,
            "Table function read_parquet() is not allowed in FROM; only range, generate_series and unnest are"),
        Arguments.of(
            "SELECT * FROM read_csv_auto('/etc/passwd')",
            ErrorCode.SQL_NOT_ALLOWED,
            "Table function read_csv_auto() is not allowed in FROM; only range, generate_series and unnest are"),
        Arguments.of(
            "SELECT * FROM read_json('x.json')",
            ErrorCode.SQL_NOT_ALLOWED,
            "Table function read_json() is not allowed in FROM; only range, generate_series and unnest are"),
        Arguments.of(
            "SELECT * FROM parquet_scan('x.parquet')",
            ErrorCode.SQL_NOT_ALLOWED,
            "Table function parquet_scan() is not allowed in FROM; only range, generate_series and unnest are"),
        Arguments.of(
            "SELECT * FROM glob('/etc/*')",
            ErrorCode.SQL_NOT_ALLOWED,
            "Table function glob() is not allowed in FROM; only range, generate_series and unnest are"),
        Arguments.of(
            "SELECT * FROM read_text('/etc/passwd')",
            ErrorCode.SQL_NOT_ALLOWED,
            "Table function read_text() is not allowed in FROM; only range, generate_series and unnest are"),
        Arguments.of(
            "SELECT * FROM read_blob('/etc/passwd')",
            ErrorCode.SQL_NOT_ALLOWED,
            "Table function read_blob() is not allowed in FROM; only range, generate_series and unnest are"),
        Arguments.of(
            "SELECT * FROM 's3://bucket/x.parquet'",
            ErrorCode.SQL_NOT_ALLOWED,
            "'s3://bucket/x.parquet' looks like a file or URL; only catalog.namespace.table names are read"),
        Arguments.of(
            "SELECT * FROM 'x.parquet'",
            ErrorCode.SQL_NOT_ALLOWED,
            "'x.parquet' looks like a file or URL; only catalog.namespace.table names are read"),
        Arguments.of(
            "SELECT getenv('HOME')",
            ErrorCode.SQL_NOT_ALLOWED,
            "Function getenv() is not allowed: it reads files, URLs, settings or host metadata"),
        Arguments.of(
            "SELECT current_setting('temp_directory')",
            ErrorCode.SQL_NOT_ALLOWED,
            "Function current_setting() is not allowed: it reads files, URLs, settings or host metadata"),
        Arguments.of(
            "SELECT * FROM duckdb_settings()",
            ErrorCode.SQL_NOT_ALLOWED,
            "Table function duckdb_settings() is not allowed in FROM; only range, generate_series and unnest are"),
        Arguments.of(
            "SELECT n_name FROM lake.tpch.nation WHERE n_name IN (SELECT database_name FROM duckdb_databases())",
            ErrorCode.SQL_NOT_ALLOWED,
            "Table function duckdb_databases() is not allowed in FROM; only range, generate_series and unnest are"),
        Arguments.of(
            "SELECT * FROM sniff_csv('x.csv')",
            ErrorCode.SQL_NOT_ALLOWED,
            "Table function sniff_csv() is not allowed in FROM; only range, generate_series and unnest are"),
        Arguments.of(
            "SELECT * FROM query('SELECT 1')",
            ErrorCode.SQL_NOT_ALLOWED,
            "Table function query() is not allowed in FROM; only range, generate_series and unnest are"),
        Arguments.of(
            "SELECT * FROM query_table('t')",
            ErrorCode.SQL_NOT_ALLOWED,
            "Table function query_table() is not allowed in FROM; only range, generate_series and unnest are"),
        Arguments.of(
            "WITH c AS (SELECT getenv('USER') AS u) SELECT * FROM c",
            ErrorCode.SQL_NOT_ALLOWED,
            "Function getenv() is not allowed: it reads files, URLs, settings or host metadata"),
        Arguments.of(
            "SELECT (SELECT max(x) FROM (SELECT length(read_text('/etc/passwd')) AS x))",
            ErrorCode.SQL_NOT_ALLOWED,
            "Function read_text() is not allowed: it reads files, URLs, settings or host metadata"),
        Arguments.of(
            "SELECT * FROM lake.tpch.nation UNION ALL SELECT * FROM read_parquet('x')",
            ErrorCode.SQL_NOT_ALLOWED,
            "Table function read_parquet() is not allowed in FROM; only range, generate_series and unnest are"),
        Arguments.of(
            "SELECT * FROM lake.tpch.nation n JOIN read_csv('x') r ON true",
            ErrorCode.SQL_NOT_ALLOWED,
            "Table function read_csv() is not allowed in FROM; only range, generate_series and unnest are"),
        Arguments.of(
            "SELECT * FROM nation",
            ErrorCode.SQL_NOT_ALLOWED,
            "Table 'nation' must be fully qualified as catalog.namespace.table"),
        Arguments.of(
            "SELECT * FROM tpch.nation",
            ErrorCode.SQL_NOT_ALLOWED,
            "Table 'tpch.nation' must be fully qualified as catalog.namespace.table"),
        Arguments.of(
            "SELECT * FROM system.main.duckdb_settings",
            ErrorCode.SQL_NOT_ALLOWED,
            "DuckDB's internal catalog 'system' cannot be read"),
        Arguments.of(
            "SELECT * FROM lake.tpch.nation AT (VERSION => 1)",
            ErrorCode.SQL_NOT_ALLOWED,
            "AT (VERSION/TIMESTAMP) time travel is not allowed; lake pins table snapshots itself"),
        Arguments.of(
            "SELECT * FROM lake.tpch.nation FOR UPDATE",
            ErrorCode.SQL_NOT_ALLOWED,
            "Locking clauses (FOR UPDATE/SHARE) are not allowed"),
        Arguments.of(
            "SELECT 1 INTO x",
            ErrorCode.INVALID_SQL,
            "SQL does not parse: SELECT INTO not supported!"),
        Arguments.of(
            "SHOW TABLES",
            ErrorCode.SQL_NOT_ALLOWED,
            "SHOW is not allowed: list tables with the Flight SQL catalog calls (JDBC"
                + " DatabaseMetaData.getTables); DESCRIBE catalog.namespace.table, DESCRIBE <query>"
                + " and SUMMARIZE <query> work"),
        Arguments.of(
            "DESCRIBE SELECT * FROM read_parquet('x')",
            ErrorCode.SQL_NOT_ALLOWED,
            "Table function read_parquet() is not allowed in FROM; only range, generate_series and unnest are"),
        Arguments.of(
            "SUMMARIZE SELECT getenv('HOME')",
            ErrorCode.SQL_NOT_ALLOWED,
            "Function getenv() is not allowed: it reads files, URLs, settings or host metadata"),
        Arguments.of(
            "PIVOT lake.tpch.nation ON n_name USING sum(n_regionkey)",
            ErrorCode.SQL_NOT_ALLOWED,
            DuckDbSqlAdmission.DYNAMIC_PIVOT_MESSAGE),
        Arguments.of(
            "SELECT * FROM (PIVOT lake.tpch.nation ON n_name USING sum(n_regionkey))",
            ErrorCode.SQL_NOT_ALLOWED,
            DuckDbSqlAdmission.DYNAMIC_PIVOT_MESSAGE),
        Arguments.of(
            "EXPLAIN ANALYZE SELECT 1",
            ErrorCode.SQL_NOT_ALLOWED,
            "EXPLAIN ANALYZE is not allowed; use EXPLAIN"),
        Arguments.of(
            "EXPLAIN SELECT * FROM read_parquet('x')",
            ErrorCode.SQL_NOT_ALLOWED,
            "Table function read_parquet() is not allowed in FROM; only range, generate_series and unnest are"),
        Arguments.of(
            "EXPLAIN SELECT 1; DROP TABLE x",
            ErrorCode.SQL_NOT_ALLOWED,
            "Only one read-only statement is allowed; this text holds a statement that is not a SELECT"),
        Arguments.of(
            "SELECT * FROM pragma_table_info('x')",
            ErrorCode.SQL_NOT_ALLOWED,
            "Table function pragma_table_info() is not allowed in FROM; only range, generate_series and unnest are"),
        Arguments.of(
            "SELECT main.getenv('HOME')",
            ErrorCode.SQL_NOT_ALLOWED,
            "Function getenv() is not allowed: it reads files, URLs, settings or host metadata"),
        Arguments.of(
            "SELECT x FROM generate_series(1, 3) t(x) WHERE x = $name",
            ErrorCode.INVALID_SQL,
            "Named parameters ($name) are not supported; use ? or $1, $2, ..."),
        Arguments.of(
            "SELEC 1",
            ErrorCode.INVALID_SQL,
            "SQL does not parse: syntax error at or near \"SELEC\" (line 1, column 1)"),
        Arguments.of(
            "SELECT 'éé' x\nFROM generate_series(1, 3) t(x)\nWHERE x = = 1",
            ErrorCode.INVALID_SQL,
            "SQL does not parse: syntax error at or near \"=\" (line 3, column 11)"),
        Arguments.of(
            "EXPLAIN SELECT 1 FORM t",
            ErrorCode.INVALID_SQL,
            "SQL does not parse: syntax error at or near \"t\" (line 1, column 23)"),
        Arguments.of("", ErrorCode.INVALID_SQL, "SQL text is empty"),
        Arguments.of(
            "VACUUM",
            ErrorCode.SQL_NOT_ALLOWED,
            "VACUUM is not allowed: only SELECT, WITH ... SELECT, VALUES and EXPLAIN may run"),
        Arguments.of(
            "CHECKPOINT",
            ErrorCode.SQL_NOT_ALLOWED,
            "CHECKPOINT is not allowed: only SELECT, WITH ... SELECT, VALUES and EXPLAIN may run"),
        Arguments.of(
            "BEGIN TRANSACTION",
            ErrorCode.SQL_NOT_ALLOWED,
            "Transaction control (BEGIN) is not allowed: only SELECT, WITH ... SELECT, VALUES and EXPLAIN may run"),
        Arguments.of(
            "PREPARE p AS SELECT 1",
            ErrorCode.SQL_NOT_ALLOWED,
            "PREPARE is not allowed: only SELECT, WITH ... SELECT, VALUES and EXPLAIN may run"),
        Arguments.of(
            "SELECT * FROM json_execute_serialized_sql('{}')",
            ErrorCode.SQL_NOT_ALLOWED,
            "Table function json_execute_serialized_sql() is not allowed in FROM; only range, generate_series and unnest are"));
  }

  @ParameterizedTest(name = "[{index}] {0}")
  @MethodSource("hostile")
  void admit_rejects_hostileStatement(String sql, ErrorCode code, String message) {
    // GIVEN a statement lake must never run WHEN it is admitted THEN it is rejected, named
    assertThatThrownBy(() -> admission.admit(sql))
        .isInstanceOfSatisfying(LakeException.class, e -> assertThat(e.code()).isEqualTo(code))
        .hasMessage(message);
  }

  @Test
  void admit_rejects_overlongSql() {
    String sql = "SELECT 1" + " ".repeat(AdmissionConfig.DEFAULT_MAX_SQL_CHARS);
    assertThatThrownBy(() -> admission.admit(sql))
        .isInstanceOfSatisfying(
            LakeException.class, e -> assertThat(e.code()).isEqualTo(ErrorCode.INVALID_ARGUMENT))
        .hasMessage("SQL text is longer than 1048576 characters (maxSqlChars)");
  }

  @Test
  void admit_accepts_tpchQueries_andCollectsLowerCasedTables() {
    AdmittedQuery q3 =
        admission.admit(
            TpchQueries.lake(TpchQueries.Q3).replace("lake.tpch.orders", "LAKE.TPCH.Orders"));
    assertThat(q3.kind()).isEqualTo(AdmittedQuery.Kind.SELECT);
    assertThat(q3.tables())
        .containsExactly(
            TableRef.parse("lake.tpch.customer"),
            TableRef.parse("lake.tpch.lineitem"),
            TableRef.parse("lake.tpch.orders"));
    assertThat(admission.admit(TpchQueries.lake(TpchQueries.Q1)).tables())
        .containsExactly(TableRef.parse("lake.tpch.lineitem"));
    assertThat(admission.admit(TpchQueries.lake(TpchQueries.Q6)).tables())
        .containsExactly(TableRef.parse("lake.tpch.lineitem"));
  }

  @Test
  void admit_accepts_ctes_setOperations_values_parameters_andAllowedTableFunctions() {
    AdmittedQuery cte =
        admission.admit(
            "WITH n AS (SELECT * FROM lake.tpch.nation WHERE n_regionkey = ?),"
                + " r AS (SELECT * FROM n) SELECT count(*) FROM r"
                + " UNION ALL SELECT count(*) FROM lake.tpch.region WHERE r_name = $2");
    assertThat(cte.tables())
        .containsExactly(TableRef.parse("lake.tpch.nation"), TableRef.parse("lake.tpch.region"));
    assertThat(admission.admit("VALUES (1, 'a'), (2, 'b')").tables()).isEmpty();
    assertThat(
            admission
                .admit("SELECT * FROM range(3) r, generate_series(1, 2) g, unnest([1, 2]) u(x)")
                .tables())
        .isEmpty();
    assertThat(admission.admit("FROM lake.tpch.region SELECT r_name").tables())
        .containsExactly(TableRef.parse("lake.tpch.region"));
  }

  @Test
  void admit_accepts_explain_ofASelect() {
    AdmittedQuery q = admission.admit("  /* plan */ EXPLAIN SELECT * FROM lake.tpch.nation");
    assertThat(q.kind()).isEqualTo(AdmittedQuery.Kind.EXPLAIN);
    assertThat(q.tables()).containsExactly(TableRef.parse("lake.tpch.nation"));
  }

  @Test
  void admit_accepts_describeAndSummarize_ofTablesAndQueries_collectingTheirTables() {
    // WHEN DESCRIBE and SUMMARIZE of a table and of a query are admitted
    // THEN they are SELECTs over the tables the inner query reads
    for (String sql :
        List.of(
            "DESCRIBE lake.tpch.nation",
            "DESCRIBE SELECT n_name FROM lake.tpch.nation",
            "SUMMARIZE lake.tpch.nation",
            "SUMMARIZE SELECT n_name FROM lake.tpch.nation WHERE n_regionkey = 1")) {
      AdmittedQuery q = admission.admit(sql);
      assertThat(q.kind()).as(sql).isEqualTo(AdmittedQuery.Kind.SELECT);
      assertThat(q.tables()).as(sql).containsExactly(TableRef.parse("lake.tpch.nation"));
    }
  }
}
