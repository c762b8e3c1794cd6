package dev.lake.engine;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * Column references qualified by a lake table's full name ({@code lake.tpch.nation.n_name}, as
 * Metabase writes them) or by {@code namespace.table} ({@code tpch.nation.n_name}). DuckDB would
 * bind such a prefix to its own catalogs, and lake renames every table to a per-query input; the
 * prefix is rewritten in the parse tree to the table's alias ({@code nation.n_name}), which the
 * rewrite keeps. Only tables referenced without an alias of their own qualify this way (with an
 * alias, SQL hides the table's name), and a prefix whose first part is a table alias in the
 * statement is left alone (it is {@code alias.column.field}).
 */
final class QualifiedColumns {
  private final Map<String, String> fullNames = new HashMap<>(); // "cat.ns.t" and "ns.t" → t
  private final Set<String> aliases = new HashSet<>();

  private QualifiedColumns() {}

  /**
   * {@code statement} with every column reference qualified as above rewritten: a copy when there
   * is one (the parser shares its trees between threads, so they are never changed in place), else
   * {@code statement} itself.
   */
  static JsonNode normalize(JsonNode statement) {
    QualifiedColumns q = new QualifiedColumns();
    q.collect(statement);
    if (q.fullNames.isEmpty() || !q.rewrite(statement, false)) {
      return statement;
    }
    JsonNode copy = statement.deepCopy();
    q.rewrite(copy, true);
    return copy;
  }

  private void collect(JsonNode node) {
    if (node.isObject()
        && node.path("type").asText().equals("BASE_TABLE")
        && node.has("query_location")) {
      String alias = node.path("alias").asText();
      String table = lower(node.path("table_name").asText());
      aliases.add(alias.isEmpty() ? table : lower(alias));
      String catalog = lower(node.path("catalog_name").asText());
      String schema = lower(node.path("schema_name").asText());
      if (alias.isEmpty() && !catalog.isEmpty() && !schema.isEmpty()) {
        fullNames.put(catalog + "." + schema + "." + table, node.path("table_name").asText());
        fullNames.put(schema + "." + table, node.path("table_name").asText());
      }
    }
    node.forEach(this::collect);
  }

  /** Whether a reference needs rewriting; with {@code apply}, rewrites them all. */
  private boolean rewrite(JsonNode node, boolean apply) {
    boolean found = false;
    if (node.isObject() && node.path("class").asText().equals("COLUMN_REF")) {
      JsonNode names = node.path("column_names");
      if (names.isArray() && names.size() >= 3 && !aliases.contains(lower(names.get(0).asText()))) {
        found = strip((ArrayNode) names, apply);
      }
    }
    for (JsonNode child : node) {
      found |= rewrite(child, apply);
      if (found && !apply) {
        return true;
      }
    }
    return found;
  }

  /** Replaces a leading {@code cat.ns.t} (else {@code ns.t}) by {@code t} if {@code apply}. */
  private boolean strip(ArrayNode names, boolean apply) {
    String two = lower(names.get(0).asText()) + "." + lower(names.get(1).asText());
    String three = two + "." + lower(names.get(2).asText());
    if (names.size() >= 4 && fullNames.containsKey(three)) {
      if (apply) {
        String table = fullNames.get(three);
        names.remove(0);
        names.remove(0);
        names.set(0, names.textNode(table));
      }
      return true;
    }
    if (fullNames.containsKey(two)) {
      if (apply) {
        String table = fullNames.get(two);
        names.remove(0);
        names.set(0, names.textNode(table));
      }
      return true;
    }
    return false;
  }

  private static String lower(String s) {
    return s.toLowerCase(Locale.ROOT);
  }
}
