package dev.lake.engine;

import com.fasterxml.jackson.databind.JsonNode;
import dev.lake.core.ErrorCode;
import dev.lake.core.LakeException;
import dev.lake.core.TableRef;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.HashSet;
import java.util.Locale;
import java.util.Set;
import java.util.TreeSet;

/**
 * Walks a whole DuckDB parse tree (select lists, FROM, joins, subqueries, CTEs, set operations,
 * modifiers, every expression) and rejects what lake does not run. Collects the lake tables read.
 */
final class TreeChecker {
  /** Table-reference node types that may appear in FROM. */
  private static final Set<String> TABLE_REF_TYPES =
      Set.of(
          "BASE_TABLE",
          "JOIN",
          "SUBQUERY",
          "TABLE_FUNCTION",
          "EXPRESSION_LIST",
          "EMPTY",
          "PIVOT",
          "SHOW_REF",
          "COLUMN_DATA",
          "DELIM_GET",
          "CTE",
          "INVALID");

  private static final Set<String> ALLOWED_TABLE_REFS =
      Set.of(
          "BASE_TABLE",
          "JOIN",
          "SUBQUERY",
          "TABLE_FUNCTION",
          "EXPRESSION_LIST",
          "EMPTY",
          "PIVOT",
          "SHOW_REF");

  /** Scalar generators admitted only as the direct argument of {@code unnest}. */
  static final Set<String> UNNEST_ONLY = Set.of("range", "generate_series");

  private final Deque<Set<String>> cteScopes = new ArrayDeque<>();

  /** Generator calls seen as the direct argument of an {@code unnest} (by identity). */
  private final Set<JsonNode> underUnnest =
      java.util.Collections.newSetFromMap(new java.util.IdentityHashMap<>());

  private final Set<TableRef> tables = new TreeSet<>();

  /** Checks one statement (an element of {@code statements}) and returns the tables it reads. */
  static Set<TableRef> check(JsonNode statement) {
    TreeChecker checker = new TreeChecker();
    for (JsonNode p : statement.path("named_param_map")) {
      String key = p.path("key").asText();
      if (!key.chars().allMatch(Character::isDigit)) {
        throw new LakeException(
            ErrorCode.INVALID_SQL,
            "Named parameters ($" + key + ") are not supported; use ? or $1, $2, ...");
      }
    }
    checker.walk(statement.path("node"));
    return checker.tables;
  }

  private void walk(JsonNode node) {
    if (node.isArray()) {
      for (JsonNode child : node) {
        walk(child);
      }
      return;
    }
    if (!node.isObject()) {
      return;
    }
    JsonNode cteMap = node.path("cte_map").path("map");
    if (cteMap.isArray() && cteMap.size() > 0) {
      walkWithCtes(node, cteMap);
      return;
    }
    checkNode(node);
    walkChildren(node);
  }

  /**
   * The children of a checked node. A table function's own call node was checked against the
   * table-function allowlist, so only its arguments are walked (they are ordinary expressions).
   */
  private void walkChildren(JsonNode node) {
    boolean tableFunction = isTableRef(node) && node.path("type").asText().equals("TABLE_FUNCTION");
    var fields = node.fields();
    while (fields.hasNext()) {
      var field = fields.next();
      if (field.getKey().equals("cte_map")) {
        continue; // walked in scope order by walkWithCtes
      }
      if (tableFunction && field.getKey().equals("function")) {
        for (JsonNode part : field.getValue()) {
          walk(part);
        }
      } else {
        walk(field.getValue());
      }
    }
  }

  /**
   * SQL scoping of a WITH list: each CTE body sees only the CTEs defined before it (and itself when
   * it is recursive); the rest of the statement sees all of them. DuckDB resolves a name a CTE body
   * cannot see as a catalog object, so a forward reference must not count as a CTE.
   */
  private void walkWithCtes(JsonNode node, JsonNode cteMap) {
    Set<String> visible = new HashSet<>();
    cteScopes.push(visible);
    try {
      for (JsonNode entry : cteMap) {
        String name = entry.path("key").asText().toLowerCase(Locale.ROOT);
        JsonNode body = entry.path("value");
        boolean recursive =
            body.path("query").path("node").path("type").asText().equals("RECURSIVE_CTE_NODE");
        if (recursive) {
          visible.add(name);
        }
        walk(body);
        visible.add(name);
      }
      checkNode(node);
      walkChildren(node);
    } finally {
      cteScopes.pop();
    }
  }

  private void checkNode(JsonNode node) {
    if (node.has("class")) {
      checkExpression(node);
    } else if (isTableRef(node)) {
      checkTableRef(node);
    }
  }

  private static boolean isTableRef(JsonNode node) {
    return node.has("type")
        && node.has("alias")
        && node.has("query_location")
        && TABLE_REF_TYPES.contains(node.path("type").asText());
  }

  private void checkTableRef(JsonNode ref) {
    String type = ref.path("type").asText();
    if (type.equals("SHOW_REF")) {
      checkShow(ref);
    }
    if (!ALLOWED_TABLE_REFS.contains(type)) {
      throw notAllowed("Table reference of type " + type + " is not allowed");
    }
    if (type.equals("TABLE_FUNCTION")) {
      JsonNode fn = ref.path("function");
      String name = fn.path("function_name").asText().toLowerCase(Locale.ROOT);
      if (!AdmissionRules.TABLE_FUNCTIONS.contains(name)
          || !fn.path("schema").asText().isEmpty()
          || !fn.path("catalog").asText().isEmpty()) {
        throw notAllowed(
            "Table function "
                + name
                + "() is not allowed in FROM; only range, generate_series and unnest are");
      }
    }
    if (type.equals("BASE_TABLE")) {
      checkBaseTable(ref);
    }
  }

  /**
   * {@code DESCRIBE <query>} (plans the query, reads nothing) and {@code SUMMARIZE <query>} (an
   * aggregate over the query's rows, under the same bounds as any statement) are admitted; the
   * query is walked like any other. DuckDB turns {@code DESCRIBE t} and {@code SUMMARIZE t} into
   * the query {@code SELECT * FROM t}. {@code SHOW} and {@code DESCRIBE} of DuckDB's own catalog
   * (no query) are refused.
   */
  private static void checkShow(JsonNode ref) {
    String show = ref.path("show_type").asText();
    boolean hasQuery = ref.path("query").isObject();
    if (!hasQuery || !(show.equals("DESCRIBE") || show.equals("SUMMARY"))) {
      throw notAllowed(
          "SHOW is not allowed: list tables with the Flight SQL catalog calls (JDBC"
              + " DatabaseMetaData.getTables); DESCRIBE catalog.namespace.table, DESCRIBE <query>"
              + " and SUMMARIZE <query> work");
    }
  }

  private void checkBaseTable(JsonNode ref) {
    String catalog = ref.path("catalog_name").asText();
    String schema = ref.path("schema_name").asText();
    String table = ref.path("table_name").asText();
    if (!ref.path("at_clause").isNull() && !ref.path("at_clause").isMissingNode()) {
      throw notAllowed(
          "AT (VERSION/TIMESTAMP) time travel is not allowed; lake pins table snapshots itself");
    }
    if (catalog.isEmpty() && schema.isEmpty() && inCteScope(table)) {
      return;
    }
    if (catalog.isEmpty() || schema.isEmpty()) {
      if (table.contains("/") || table.contains(":") || table.contains(".")) {
        throw notAllowed(
            "'"
                + table
                + "' looks like a file or URL; only catalog.namespace.table names are read");
      }
      String shown = schema.isEmpty() ? table : schema + "." + table;
      throw notAllowed("Table '" + shown + "' must be fully qualified as catalog.namespace.table");
    }
    if (AdmissionRules.INTERNAL_CATALOGS.contains(catalog.toLowerCase(Locale.ROOT))) {
      throw notAllowed("DuckDB's internal catalog '" + catalog + "' cannot be read");
    }
    try {
      tables.add(new TableRef(catalog, schema, table));
    } catch (LakeException | IllegalArgumentException e) {
      throw notAllowed("Invalid table name: " + e.getMessage());
    }
  }

  private boolean inCteScope(String name) {
    String n = name.toLowerCase(Locale.ROOT);
    for (Set<String> scope : cteScopes) {
      if (scope.contains(n)) {
        return true;
      }
    }
    return false;
  }

  private void checkExpression(JsonNode expr) {
    String kind = expr.path("class").asText();
    if (kind.equals("COLUMN_REF")) {
      JsonNode names = expr.path("column_names");
      if (names.size() == 1
          && AdmissionRules.VALUE_FUNCTIONS.contains(
              names.get(0).asText().toLowerCase(Locale.ROOT))) {
        throw notAllowed(
            "'"
                + names.get(0).asText()
                + "' is not allowed unqualified: DuckDB reads it as a session function;"
                + " qualify a column of that name with its table");
      }
      return;
    }
    if (!kind.equals("FUNCTION") && !kind.equals("WINDOW")) {
      return;
    }
    String name = expr.path("function_name").asText().toLowerCase(Locale.ROOT);
    String schema = expr.path("schema").asText();
    String catalog = expr.path("catalog").asText();
    if (AdmissionRules.deniedFunction(name)) {
      throw notAllowed(
          "Function "
              + name
              + "() is not allowed: it reads files, URLs, settings or host metadata");
    }
    if (!catalog.isEmpty() || !(schema.isEmpty() || schema.equals("main"))) {
      throw notAllowed("Qualified function names are not allowed: " + schema + "." + name + "()");
    }
    if ((name.equals("unnest") || name.equals("unlist")) && kind.equals("FUNCTION")) {
      for (JsonNode child : expr.path("children")) {
        if (child.path("class").asText().equals("FUNCTION")
            && UNNEST_ONLY.contains(
                child.path("function_name").asText().toLowerCase(Locale.ROOT))) {
          underUnnest.add(child);
        }
      }
    }
    if (UNNEST_ONLY.contains(name) && kind.equals("FUNCTION")) {
      if (underUnnest.contains(expr)) {
        return;
      }
      throw notAllowed(
          "Function "
              + name
              + "() is allowed in the select list only directly under unnest, as in SELECT"
              + " unnest("
              + name
              + "(1, 10)), or in FROM, as in SELECT * FROM "
              + name
              + "(1, 10)");
    }
    boolean allowed =
        kind.equals("WINDOW")
            ? FunctionAllowlist.windowAllowed(name)
            : FunctionAllowlist.callAllowed(name);
    if (!allowed) {
      throw notAllowed(
          "Function "
              + name
              + "() is not allowed: lake admits only the functions listed in"
              + " docs/sql-admission.md");
    }
  }

  private static LakeException notAllowed(String message) {
    return new LakeException(ErrorCode.SQL_NOT_ALLOWED, message);
  }
}
