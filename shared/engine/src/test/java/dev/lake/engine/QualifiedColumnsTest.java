package dev.lake.engine;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** Columns qualified by a table's full name bind to the table; see {@link QualifiedColumns}. */
class QualifiedColumnsTest {
  static SqlParser parser;

  @BeforeAll
  static void setUp() {
    parser = new SqlParser();
  }

  @AfterAll
  static void tearDown() {
    parser.close();
  }

  static JsonNode statement(String sql) {
    return parser.serialize(sql).path("statements").get(0);
  }

  @Test
  void fullNamePrefixes_becomeTheTableName_inACopy_leavingTheSharedTreeAsItWas() {
    // GIVEN a statement with lake.tpch.nation.n_name and tpch.nation.n_regionkey
    JsonNode shared =
        statement("SELECT lake.tpch.nation.n_name, tpch.nation.n_regionkey FROM lake.tpch.nation");
    String before = shared.toString();

    // WHEN it is normalized
    JsonNode normalized = QualifiedColumns.normalize(shared);

    // THEN the copy names both columns by table.column, and the parser's tree is unchanged
    assertThat(normalized.path("node").path("select_list").findValues("column_names").toString())
        .isEqualTo("[[\"nation\",\"n_name\"], [\"nation\",\"n_regionkey\"]]");
    assertThat(shared.toString()).isEqualTo(before);
    assertThat(normalized).isNotSameAs(shared);
  }

  @Test
  void aliasedTables_andAliasFieldPaths_areLeftAlone() {
    // GIVEN a table with an alias of its own, and a reference whose first part is an alias
    JsonNode aliased = statement("SELECT lake.tpch.nation.n_name FROM lake.tpch.nation n");
    JsonNode field = statement("SELECT n.s.f FROM lake.tpch.nation n");

    // WHEN they are normalized THEN nothing changes (the same tree comes back)
    assertThat(QualifiedColumns.normalize(aliased)).isSameAs(aliased);
    assertThat(QualifiedColumns.normalize(field)).isSameAs(field);
  }
}
