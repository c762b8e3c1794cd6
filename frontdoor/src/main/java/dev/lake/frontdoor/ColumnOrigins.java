package dev.lake.frontdoor;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.lake.core.AdmittedQuery;
import dev.lake.frontdoor.ColumnMetadata.ColumnOrigin;
import java.io.IOException;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Optional;
import java.util.Properties;
import org.duckdb.DuckDBDriver;

/**
 * Which result columns are plain columns of a lake table, read from DuckDB's own parse tree ({@code
 * json_serialize_sql}) of an admitted statement. Only the unambiguous shapes are named: one base
 * table in FROM, no CTE or set operation, and a select list that is either {@code *} or has one
 * item per result column, each item a bare column reference (optionally aliased to its own name).
 * Anything else (expressions, aggregates, joins, subqueries) has no origin, which is what "where
 * known" means; an origin is never guessed.
 */
final class ColumnOrigins {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static Connection parser;

  private ColumnOrigins() {}

  /** Per result column (by position) its table, when the statement makes it certain. */
  static List<Optional<ColumnOrigin>> of(AdmittedQuery query, int columns) {
    List<Optional<ColumnOrigin>> none = Collections.nCopies(columns, Optional.empty());
    if (query.kind() != AdmittedQuery.Kind.SELECT || query.tables().size() != 1) {
      return none;
    }
    Optional<JsonNode> tree = parse(query.sql());
    if (tree.isEmpty()) {
      return none;
    }
    JsonNode statements = tree.get().path("statements");
    JsonNode node = statements.path(0).path("node");
    if (statements.size() != 1
        || !node.path("type").asText().equals("SELECT_NODE")
        || node.path("cte_map").path("map").size() > 0) {
      return none;
    }
    JsonNode from = node.path("from_table");
    if (!from.path("type").asText().equals("BASE_TABLE")
        || from.path("catalog_name").asText().isEmpty()
        || from.path("schema_name").asText().isEmpty()) {
      return none;
    }
    Optional<ColumnOrigin> table =
        Optional.of(
            new ColumnOrigin(
                from.path("catalog_name").asText(),
                from.path("schema_name").asText(),
                from.path("table_name").asText()));
    JsonNode select = node.path("select_list");
    if (select.size() == 1 && plainStar(select.get(0))) {
      return Collections.nCopies(columns, table);
    }
    if (select.size() != columns) {
      return none;
    }
    List<Optional<ColumnOrigin>> out = new ArrayList<>();
    for (JsonNode item : select) {
      out.add(bareColumn(item) ? table : Optional.empty());
    }
    return out;
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

  private static boolean bareColumn(JsonNode item) {
    return item.path("class").asText().equals("COLUMN_REF");
  }

  /** The parse tree, or empty when DuckDB cannot serialize the statement. */
  private static synchronized Optional<JsonNode> parse(String sql) {
    try {
      if (parser == null) {
        Properties p = new Properties();
        p.setProperty("threads", "1");
        parser = new DuckDBDriver().connect("jdbc:duckdb:", p);
      }
      try (PreparedStatement s =
          parser.prepareStatement("SELECT json_serialize_sql(CAST(? AS VARCHAR))")) {
        s.setString(1, sql);
        try (ResultSet rs = s.executeQuery()) {
          if (!rs.next()) {
            return Optional.empty();
          }
          JsonNode tree = JSON.readTree(rs.getString(1));
          return tree.path("error").asBoolean(false) ? Optional.empty() : Optional.of(tree);
        }
      }
    } catch (SQLException | IOException e) {
      return Optional.empty();
    }
  }
}
