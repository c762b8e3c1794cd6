package dev.lake.engine;

import com.fasterxml.jackson.databind.JsonNode;
import dev.lake.core.ColumnOrigins;
import dev.lake.core.TableRef;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.SortedSet;

/**
 * The {@link ColumnOrigins} of an admitted SELECT, read from the same parse tree admission decided
 * on ({@code json_serialize_sql}), so no second parse is needed to name result columns' tables.
 */
final class OriginShapes {
  private OriginShapes() {}

  /**
   * The origins of {@code statement} (one {@code statements[i]} node) reading exactly {@code
   * tables}: named only for one base table in FROM, no CTE, and a plain {@code *} or bare column
   * references; {@link ColumnOrigins#NONE} otherwise.
   */
  static ColumnOrigins of(JsonNode statement, SortedSet<TableRef> tables) {
    JsonNode node = statement.path("node");
    if (tables.size() != 1
        || !node.path("type").asText().equals("SELECT_NODE")
        || node.path("cte_map").path("map").size() > 0) {
      return ColumnOrigins.NONE;
    }
    JsonNode from = node.path("from_table");
    if (!from.path("type").asText().equals("BASE_TABLE")
        || from.path("catalog_name").asText().isEmpty()
        || from.path("schema_name").asText().isEmpty()) {
      return ColumnOrigins.NONE;
    }
    // admission checked that the one table the statement reads is this fully qualified base table
    Optional<TableRef> table = Optional.of(tables.first());
    JsonNode select = node.path("select_list");
    if (select.size() == 1 && plainStar(select.get(0))) {
      return new ColumnOrigins(table, true, List.of());
    }
    List<Boolean> bare = new ArrayList<>();
    for (JsonNode item : select) {
      bare.add(item.path("class").asText().equals("COLUMN_REF"));
    }
    return new ColumnOrigins(table, false, bare);
  }

  private static boolean plainStar(JsonNode item) {
    return item.path("class").asText().equals("STAR")
        && item.path("relation_name").asText().isEmpty()
        && item.path("exclude_list").size() == 0
        && item.path("qualified_exclude_list").size() == 0
        && item.path("replace_list").size() == 0
        && item.path("rename_list").size() == 0
        && !item.path("columns").asBoolean(false)
        && item.path("expr").isNull();
  }
}
