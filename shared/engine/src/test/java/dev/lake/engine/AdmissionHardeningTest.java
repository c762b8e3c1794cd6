package dev.lake.engine;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.lake.core.AdmittedQuery;
import dev.lake.core.ErrorCode;
import dev.lake.core.LakeException;
import dev.lake.core.TableRef;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Admission that cannot be poisoned and denies by default: bounded parse cost, SQL scoping of CTE
 * names, the function allowlist, and recovery of the parser after an input breaks a session.
 */
class AdmissionHardeningTest {
  static DuckDbSqlAdmission admission;

  @BeforeAll
  static void setUp() {
    admission = new DuckDbSqlAdmission();
  }

  @AfterAll
  static void tearDown() {
    admission.close();
  }

  /** The 22 TPC-H queries (validation parameters) over lake.tpch.*. */
  static List<String> tpch22() throws IOException {
    List<String> out = new ArrayList<>();
    for (int i = 1; i <= 22; i++) {
      String name = String.format("tpch22/q%02d.sql", i);
      try (InputStream in = AdmissionHardeningTest.class.getResourceAsStream(name)) {
        out.add(new String(in.readAllBytes(), StandardCharsets.UTF_8).strip());
      }
    }
    return out;
  }

  private static void assertRejected(String sql, ErrorCode code, String messagePart) {
    assertThatThrownBy(() -> admission.admit(sql))
        .isInstanceOfSatisfying(LakeException.class, e -> assertThat(e.code()).isEqualTo(code))
        .hasMessageContaining(messagePart);
  }

  @Test
  void admit_accepts_all22TpchQueries() throws IOException {
    // GIVEN the 22 TPC-H queries WHEN admitted THEN each is a SELECT over lake.tpch tables
    for (String q : tpch22()) {
      AdmittedQuery a = admission.admit(q);
      assertThat(a.kind()).isEqualTo(AdmittedQuery.Kind.SELECT);
      assertThat(a.tables()).isNotEmpty().allMatch(t -> t.catalog().equals("lake"));
    }
  }

  @Test
  void admit_rejects_cteForwardReference_thatWouldReadDuckDbsCatalog() {
    // GIVEN a CTE body naming a CTE defined after it (DuckDB would read its own catalog view)
    String sql =
        "WITH a AS (SELECT * FROM duckdb_columns), duckdb_columns AS (SELECT 1) SELECT * FROM a";
    // THEN the name is not a visible CTE, so it must be a qualified lake table: rejected
    assertRejected(sql, ErrorCode.SQL_NOT_ALLOWED, "must be fully qualified");
    assertRejected(
        "WITH a AS (SELECT * FROM b), b AS (SELECT 1 AS x) SELECT * FROM a",
        ErrorCode.SQL_NOT_ALLOWED,
        "Table 'b' must be fully qualified");
    // a CTE body that names itself without RECURSIVE reads a catalog object too
    assertRejected(
        "WITH pg_settings AS (SELECT * FROM pg_settings) SELECT * FROM pg_settings",
        ErrorCode.SQL_NOT_ALLOWED,
        "Table 'pg_settings' must be fully qualified");
  }

  @Test
  void admit_accepts_backwardAndRecursiveCteReferences() {
    assertThat(
            admission
                .admit(
                    "WITH b AS (SELECT n_name FROM lake.tpch.nation), a AS (SELECT * FROM b)"
                        + " SELECT * FROM a, b")
                .tables())
        .containsExactly(TableRef.parse("lake.tpch.nation"));
    assertThat(
            admission
                .admit(
                    "WITH RECURSIVE t(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM t WHERE n < 3)"
                        + " SELECT * FROM t")
                .tables())
        .isEmpty();
  }

  @ParameterizedTest
  @ValueSource(
      strings = {
        "SELECT * FROM pg_settings",
        "SELECT * FROM duckdb_columns",
        "SELECT col_description(1, 1)",
        "SELECT pg_typeof(1)",
        "SELECT obj_description(1, 'pg_class')",
        "SELECT has_table_privilege('x', 'select')",
        "SELECT current_database()",
        "SELECT current_schemas(true)",
        "SELECT version()",
        "SELECT current_setting('temp_directory')",
        "SELECT format_type(1, 1)",
        "SELECT pg_get_viewdef(1)",
        "SELECT len(range(1000000000))",
        "SELECT generate_series(1, 1000000000)",
        "SELECT unnest([1]) + len(range(1000000000))",
        "SELECT list_resize([1], 1000000000)",
        "SELECT nextval('s')",
        "SELECT setseed(0.5)",
        "SELECT write_log('x')",
        "SELECT n_name FROM lake.tpch.nation WHERE n_name = current_user",
        "SELECT some_future_duckdb_function(1)"
      })
  void admit_deniesByDefault_catalogIntrospectionAndUnlistedFunctions(String sql) {
    assertThatThrownBy(() -> admission.admit(sql))
        .isInstanceOfSatisfying(
            LakeException.class, e -> assertThat(e.code()).isEqualTo(ErrorCode.SQL_NOT_ALLOWED));
  }

  @Test
  void admit_accepts_sizeArgumentFunctions_andGeneratorsUnderUnnest() {
    // WHEN the string formatters and scalar generators directly under unnest are admitted
    // THEN they pass (the engine process's memory ceiling bounds what they allocate)
    assertThat(
            admission
                .admit(
                    "SELECT lpad(n_name, 20, '.'), rpad(n_name, 20), printf('%s-%d', n_name,"
                        + " n_nationkey), format('{}:{}', n_name, n_regionkey), repeat('ab', 3),"
                        + " bar(n_nationkey, 0, 24, 10) FROM lake.tpch.nation")
                .tables())
        .containsExactly(TableRef.parse("lake.tpch.nation"));
    assertThat(admission.admit("SELECT unnest(generate_series(1, 3)), unnest(range(3))").tables())
        .isEmpty();
    // AND a generator anywhere else names where it works
    assertThatThrownBy(() -> admission.admit("SELECT generate_series(1, 3)"))
        .hasMessage(
            "Function generate_series() is allowed in the select list only directly under unnest,"
                + " as in SELECT unnest(generate_series(1, 10)), or in FROM, as in SELECT * FROM"
                + " generate_series(1, 10)");
  }

  @Test
  void admit_accepts_windowFunctions_andAggregatesOverWindows() {
    assertThat(
            admission
                .admit(
                    "SELECT n_name, row_number() OVER (ORDER BY n_name), sum(n_regionkey) OVER ()"
                        + ", lag(n_name) OVER (PARTITION BY n_regionkey ORDER BY n_name)"
                        + " FROM lake.tpch.nation")
                .tables())
        .containsExactly(TableRef.parse("lake.tpch.nation"));
    assertRejected(
        "SELECT pg_typeof(n_name) OVER () FROM lake.tpch.nation",
        ErrorCode.SQL_NOT_ALLOWED,
        "pg_typeof");
  }

  @Test
  void admit_rejects_overlongList_namingTheBound_thenAdmitsTheNextText() {
    // GIVEN the 40,000-item select list that once broke the shared parser statement
    String items = IntStream.range(0, 40_000).mapToObj(i -> "1").collect(Collectors.joining(","));
    assertRejected(
        "SELECT " + items, ErrorCode.INVALID_ARGUMENT, "more than 4096 items (maxListItems)");
    assertRejected(
        "SELECT 1 WHERE 1 IN (" + items + ")", ErrorCode.INVALID_ARGUMENT, "maxListItems");
    // THEN a fresh, never-seen text still parses
    assertThat(admission.admit("SELECT 40001 AS fresh_after_list").tables()).isEmpty();
  }

  @Test
  void admit_rejects_deepNesting_namingTheBound_thenAdmitsTheNextText() {
    String deep = "SELECT " + "(".repeat(10_000) + "1" + ")".repeat(10_000);
    assertRejected(deep, ErrorCode.INVALID_ARGUMENT, "deeper than 64 levels (maxNestingDepth)");
    String deepArrays = "SELECT " + "[".repeat(100) + "1" + "]".repeat(100);
    assertRejected(deepArrays, ErrorCode.INVALID_ARGUMENT, "maxNestingDepth");
    assertThat(admission.admit("SELECT 40002 AS fresh_after_nesting").tables()).isEmpty();
  }

  @Test
  void sqlBounds_ignoresDelimitersInsideLiteralsIdentifiersAndComments() {
    AdmissionConfig config = AdmissionConfig.defaults();
    String commas = ",".repeat(10_000);
    String parens = "(".repeat(1_000);
    // GIVEN delimiters only inside quotes, comments and dollar-quoted strings THEN they are ignored
    SqlBounds.check("SELECT '" + commas + parens + "'", config);
    SqlBounds.check("SELECT 1 AS \"" + commas + "\"", config);
    SqlBounds.check("SELECT 1 -- " + commas + "\n", config);
    SqlBounds.check("SELECT 1 /* " + parens + " */", config);
    SqlBounds.check("SELECT $x$" + commas + "$x$, $1", config);
    SqlBounds.check("SELECT 'it''s " + commas + "'", config);
  }

  @Test
  void parser_replacesABrokenSession_soOneInputCannotPoisonParsing() {
    // GIVEN a parser small enough that a large list fails inside DuckDB (the bound is lifted)
    AdmissionConfig tiny = new AdmissionConfig(1 << 20, 64, 100_000, 1, 16L << 20);
    try (DuckDbSqlAdmission small = new DuckDbSqlAdmission(tiny)) {
      String items = IntStream.range(0, 40_000).mapToObj(i -> "1").collect(Collectors.joining(","));
      // WHEN the text breaks the only session
      assertThatThrownBy(() -> small.admit("SELECT " + items))
          .isInstanceOfSatisfying(
              LakeException.class, e -> assertThat(e.code()).isEqualTo(ErrorCode.INVALID_SQL));
      // THEN the next never-seen texts parse on a fresh session
      for (int i = 0; i < 3; i++) {
        assertThat(small.admit("SELECT " + i + " AS fresh").kind())
            .isEqualTo(AdmittedQuery.Kind.SELECT);
      }
    }
  }

  @Test
  void admissionConfig_defaults_areDocumentedValues_andBoundsNameTheValue() {
    AdmissionConfig d = AdmissionConfig.defaults();
    assertThat(d.maxSqlChars()).isEqualTo(1 << 20);
    assertThat(d.maxNestingDepth()).isEqualTo(64);
    assertThat(d.maxListItems()).isEqualTo(4096);
    assertThat(d.parserConnections()).isEqualTo(2);
    assertThat(d.parserMemoryBytes()).isEqualTo(256L << 20);
    assertThatThrownBy(() -> new AdmissionConfig(1 << 20, 4, 4096, 2, 256L << 20))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("maxNestingDepth must be between 8 and 512: 4");
    assertThatThrownBy(() -> new AdmissionConfig(1 << 20, 64, 1, 2, 256L << 20))
        .hasMessage("maxListItems must be between 16 and 100000: 1");
    assertThatThrownBy(() -> new AdmissionConfig(1 << 20, 64, 4096, 0, 256L << 20))
        .hasMessage("parserConnections must be between 1 and 16: 0");
  }
}
