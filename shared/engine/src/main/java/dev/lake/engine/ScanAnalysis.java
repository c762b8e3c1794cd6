package dev.lake.engine;

import com.fasterxml.jackson.databind.JsonNode;
import dev.lake.core.ScanRequest;
import dev.lake.core.TableRef;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.Schema;

/**
 * What a statement needs from each table scan, computed conservatively from the parse tree: the
 * columns (all of them whenever something could reference columns implicitly: {@code *}, {@code
 * COLUMNS(..)}, {@code #n}, NATURAL joins, column aliases on a table, PIVOT, a table used as a row
 * value) and simple {@code column op constant} conjuncts the scan may pre-apply. DuckDB re-applies
 * every predicate, so a pushed filter only has to never drop a matching row.
 */
final class ScanAnalysis {
  /** One candidate pushed predicate: its column (lower case) and constant subtree. */
  record Candidate(TableRef table, String column, String op, JsonNode constant) {}

  private final Set<String> names = new HashSet<>();
  private final Map<TableRef, Integer> occurrences = new HashMap<>();
  private final Set<String> tableAliases = new HashSet<>();
  private final List<JsonNode> selectNodes = new ArrayList<>();
  private boolean allColumns;

  ScanAnalysis(JsonNode statementNode) {
    collect(statementNode);
    for (String alias : tableAliases) {
      if (names.contains(alias) && singlePartNames.contains(alias)) {
        allColumns = true;
      }
    }
  }

  private final Set<String> singlePartNames = new HashSet<>();

  private void collect(JsonNode node) {
    if (node.isArray()) {
      node.forEach(this::collect);
      return;
    }
    if (!node.isObject()) {
      return;
    }
    String cls = node.path("class").asText("");
    String type = node.path("type").asText("");
    if (cls.equals("COLUMN_REF")) {
      JsonNode parts = node.path("column_names");
      for (JsonNode p : parts) {
        names.add(p.asText().toLowerCase(Locale.ROOT));
      }
      if (parts.size() == 1) {
        singlePartNames.add(parts.get(0).asText().toLowerCase(Locale.ROOT));
      }
    } else if (cls.equals("STAR") || cls.equals("POSITIONAL_REFERENCE")) {
      allColumns = true;
    } else if (cls.isEmpty() && node.has("query_location") && node.has("alias")) {
      if (type.equals("PIVOT")) {
        allColumns = true;
      } else if (type.equals("JOIN")
          && !node.path("ref_type").asText().equals("REGULAR")
          && !node.path("ref_type").asText().equals("CROSS")) {
        allColumns = true;
      } else if (type.equals("BASE_TABLE") && !node.path("catalog_name").asText().isEmpty()) {
        TableRef ref = ref(node);
        occurrences.merge(ref, 1, Integer::sum);
        tableAliases.add(alias(node));
        tableAliases.add(ref.table());
        if (node.path("column_name_alias").size() > 0) {
          allColumns = true;
        }
      }
    }
    if (type.equals("SELECT_NODE")) {
      selectNodes.add(node);
    }
    node.forEach(this::collect);
  }

  static TableRef ref(JsonNode baseTable) {
    return new TableRef(
        baseTable.path("catalog_name").asText(),
        baseTable.path("schema_name").asText(),
        baseTable.path("table_name").asText());
  }

  static String alias(JsonNode baseTable) {
    String alias = baseTable.path("alias").asText();
    return (alias.isEmpty() ? baseTable.path("table_name").asText() : alias)
        .toLowerCase(Locale.ROOT);
  }

  /** The columns to read from {@code schema}; empty means all. Never empty-projects a table. */
  List<String> columns(Schema schema) {
    if (allColumns) {
      return List.of();
    }
    List<String> out = new ArrayList<>();
    for (Field f : schema.getFields()) {
      if (names.contains(f.getName().toLowerCase(Locale.ROOT))) {
        out.add(f.getName());
      }
    }
    if (out.isEmpty() && !schema.getFields().isEmpty()) {
      out.add(schema.getFields().get(0).getName());
    }
    return out.size() == schema.getFields().size() ? List.of() : out;
  }

  /**
   * Candidate predicates for {@code ref}: conjuncts of a WHERE whose FROM is only inner/cross joins
   * of base tables, on a column of a table read exactly once in the whole statement.
   */
  /**
   * Tables the statement reads more than once (self-joins, a table in two subqueries): an Arrow
   * stream can be consumed only once, so each of these is materialized per query.
   */
  java.util.Set<TableRef> readMoreThanOnce() {
    java.util.Set<TableRef> out = new java.util.TreeSet<>();
    occurrences.forEach(
        (ref, n) -> {
          if (n > 1) {
            out.add(ref);
          }
        });
    return out;
  }

  List<Candidate> candidates(TableRef target, Map<TableRef, Schema> schemas) {
    if (occurrences.getOrDefault(target, 0) != 1) {
      return List.of();
    }
    List<Candidate> out = new ArrayList<>();
    for (JsonNode select : selectNodes) {
      List<JsonNode> from = new ArrayList<>();
      if (!plainFrom(select.path("from_table"), from)) {
        continue;
      }
      List<JsonNode> conjuncts = new ArrayList<>();
      flattenAnd(select.path("where_clause"), conjuncts);
      for (JsonNode c : conjuncts) {
        String type = c.path("type").asText();
        if (c.path("class").asText().equals("COMPARISON") && Predicates.OPS.containsKey(type)) {
          String op = Predicates.OPS.get(type);
          if (Predicates.isConstant(c.path("right"))) {
            add(out, target, schemas, from, c.path("left"), op, c.path("right"));
          } else if (Predicates.isConstant(c.path("left"))) {
            add(out, target, schemas, from, c.path("right"), Predicates.flip(op), c.path("left"));
          }
        } else if (c.path("class").asText().equals("BETWEEN")
            && Predicates.isConstant(c.path("lower"))
            && Predicates.isConstant(c.path("upper"))) {
          add(out, target, schemas, from, c.path("input"), ">=", c.path("lower"));
          add(out, target, schemas, from, c.path("input"), "<=", c.path("upper"));
        }
      }
    }
    return out;
  }

  private static void add(
      List<Candidate> out,
      TableRef target,
      Map<TableRef, Schema> schemas,
      List<JsonNode> from,
      JsonNode column,
      String op,
      JsonNode constant) {
    if (!column.path("class").asText().equals("COLUMN_REF")) {
      return;
    }
    JsonNode parts = column.path("column_names");
    String name = parts.get(parts.size() - 1).asText().toLowerCase(Locale.ROOT);
    List<JsonNode> owners = new ArrayList<>();
    for (JsonNode t : from) {
      TableRef ref = ref(t);
      Schema schema = schemas.get(ref);
      boolean has =
          schema != null
              && schema.getFields().stream()
                  .anyMatch(f -> f.getName().toLowerCase(Locale.ROOT).equals(name));
      boolean aliasOk =
          parts.size() == 1
              || (parts.size() == 2 && parts.get(0).asText().equalsIgnoreCase(alias(t)));
      if (has && aliasOk) {
        owners.add(t);
      } else if (schema == null && parts.size() == 1) {
        return; // an unknown table might own the column
      }
    }
    if (parts.size() <= 2 && owners.size() == 1 && ref(owners.get(0)).equals(target)) {
      out.add(new Candidate(target, name, op, constant));
    }
  }

  /** Whether FROM is only base tables under INNER/CROSS joins (no outer, lateral, subquery). */
  private static boolean plainFrom(JsonNode ref, List<JsonNode> tables) {
    switch (ref.path("type").asText()) {
      case "BASE_TABLE":
        if (ref.path("catalog_name").asText().isEmpty()) {
          return false;
        }
        tables.add(ref);
        return true;
      case "JOIN":
        String refType = ref.path("ref_type").asText();
        return ref.path("join_type").asText().equals("INNER")
            && (refType.equals("REGULAR") || refType.equals("CROSS"))
            && plainFrom(ref.path("left"), tables)
            && plainFrom(ref.path("right"), tables);
      default:
        return false;
    }
  }

  private static void flattenAnd(JsonNode expr, List<JsonNode> out) {
    if (expr.isMissingNode() || expr.isNull()) {
      return;
    }
    if (expr.path("type").asText().equals("CONJUNCTION_AND")) {
      expr.path("children").forEach(c -> flattenAnd(c, out));
    } else {
      out.add(expr);
    }
  }

  /** A predicate ready for a {@link ScanRequest}. */
  static ScanRequest.Predicate predicate(String column, String op, String literal, String type) {
    return new ScanRequest.Predicate(column, op, literal, Optional.of(type));
  }
}
