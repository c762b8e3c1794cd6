package dev.lake.engine;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.lake.core.AdmittedQuery;
import dev.lake.core.ErrorCode;
import dev.lake.core.LakeException;
import dev.lake.core.TableRef;
import java.util.List;
import java.util.Map;

/**
 * The parsed form of an admitted statement and its rewrite: every {@code catalog.namespace.table}
 * reference is replaced in the parse tree by a per-query view name (keeping the original name as
 * the alias so qualified column references still bind), and the tree is rendered back to SQL by
 * DuckDB ({@code json_deserialize_sql}). No client text is spliced.
 */
final class StatementRewriter {
  private final JsonNode statement;
  private final boolean explain;

  private StatementRewriter(JsonNode statement, boolean explain) {
    this.statement = statement;
    this.explain = explain;
  }

  static StatementRewriter parse(AdmittedQuery query, SqlParser parser) {
    String text = query.sql();
    boolean explain = query.kind() == AdmittedQuery.Kind.EXPLAIN;
    if (explain) {
      List<LeadingWords.Word> words = LeadingWords.first(text, 1);
      if (words.isEmpty() || !words.get(0).text().equals("EXPLAIN")) {
        throw new LakeException(ErrorCode.INVALID_SQL, "EXPLAIN statement expected");
      }
      text = text.substring(words.get(0).end());
    }
    JsonNode tree = parser.serialize(text);
    if (tree.path("error").asBoolean(true) || tree.path("statements").size() != 1) {
      throw new LakeException(
          ErrorCode.INVALID_SQL, "Statement is not an admitted single SELECT; admit it first");
    }
    JsonNode statement = tree.path("statements").get(0);
    TreeChecker.check(statement); // defense in depth: the engine re-checks what it runs
    return new StatementRewriter(QualifiedColumns.normalize(statement), explain);
  }

  JsonNode statement() {
    return statement;
  }

  boolean explain() {
    return explain;
  }

  /**
   * SQL over the per-query inputs named in {@code views} ({@code name} or {@code schema.name}) and
   * the tables of {@code inline}, whose reference is replaced by the given statement (a parsed
   * file-reading {@code SELECT} of lake's own, never client text) as a subquery under the table's
   * alias: DuckDB then binds each such scan once, with the statement, instead of once more for a
   * view. With {@code emptyResult} the outermost query gets {@code LIMIT 0} (replacing its own
   * limit and offset): DuckDB's optimizer then plans an empty result, so the statement yields its
   * exact result schema at a cost bounded by the plan, never by the data or by generators such as
   * {@code range(1e15)}. EXPLAIN is rendered unchanged (it never runs the query).
   */
  String render(
      Map<TableRef, String> views,
      Map<TableRef, JsonNode> inline,
      SqlParser parser,
      boolean emptyResult) {
    JsonNode copy = statement.deepCopy();
    replace(copy, views, inline);
    if (emptyResult && !explain) {
      limitZero((ObjectNode) copy.path("node"));
    }
    String sql = parser.deserialize(copy);
    return explain ? "EXPLAIN " + sql : sql;
  }

  private static void limitZero(ObjectNode node) {
    com.fasterxml.jackson.databind.node.ArrayNode modifiers =
        node.path("modifiers").isArray()
            ? (com.fasterxml.jackson.databind.node.ArrayNode) node.get("modifiers")
            : node.putArray("modifiers");
    for (int i = modifiers.size() - 1; i >= 0; i--) {
      String type = modifiers.get(i).path("type").asText();
      if (type.equals("LIMIT_MODIFIER") || type.equals("LIMIT_PERCENT_MODIFIER")) {
        modifiers.remove(i);
      }
    }
    ObjectNode limit = modifiers.addObject();
    limit.put("type", "LIMIT_MODIFIER");
    ObjectNode zero = limit.putObject("limit");
    zero.put("class", "CONSTANT");
    zero.put("type", "VALUE_CONSTANT");
    zero.put("alias", "");
    zero.put("query_location", 0);
    ObjectNode value = zero.putObject("value");
    ObjectNode type = value.putObject("type");
    type.put("id", "INTEGER");
    type.putNull("type_info");
    value.put("is_null", false);
    value.put("value", 0);
  }

  private static void replace(
      JsonNode node, Map<TableRef, String> views, Map<TableRef, JsonNode> inline) {
    if (node.isObject()
        && node.path("type").asText().equals("BASE_TABLE")
        && node.has("query_location")
        && !node.path("catalog_name").asText().isEmpty()) {
      TableRef ref = ScanAnalysis.ref(node);
      ObjectNode o = (ObjectNode) node;
      JsonNode subquery = inline.get(ref);
      if (subquery != null) {
        if (!node.path("at_clause").isNull() && !node.path("at_clause").isMissingNode()) {
          // admission refuses time travel; a subquery could not carry it
          throw new LakeException(ErrorCode.INTERNAL, "AT clause on " + ref + " was admitted");
        }
        String alias = ScanAnalysis.alias(node);
        JsonNode sample = o.get("sample");
        JsonNode location = o.get("query_location");
        JsonNode columnAliases = o.get("column_name_alias");
        o.removeAll();
        o.put("type", "SUBQUERY");
        o.put("alias", alias);
        o.set("sample", sample);
        o.set("query_location", location);
        o.set("subquery", subquery.deepCopy());
        o.set("column_name_alias", columnAliases);
        return;
      }
      String view = views.get(ref);
      if (view == null) {
        throw new LakeException(
            ErrorCode.INTERNAL, "Table " + ref + " is not in the sealed snapshot set");
      }
      o.put("alias", ScanAnalysis.alias(node));
      int dot = view.indexOf('.'); // an engine-generated "schema.table" (a cached snapshot)
      o.put("catalog_name", "");
      o.put("schema_name", dot < 0 ? "" : view.substring(0, dot));
      o.put("table_name", view.substring(dot + 1));
    }
    node.forEach(child -> replace(child, views, inline));
  }
}
