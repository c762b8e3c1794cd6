package dev.lake.engine;

import dev.lake.core.ScanRequest;
import dev.lake.core.TableRef;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.arrow.vector.types.pojo.Schema;

/**
 * Everything about one admitted statement over one snapshot set that does not depend on the data:
 * the parse tree, each table's scan request (projection and folded pushed predicates), the SQL it
 * renders to for a given set of input names, and its result schema. Computed once and cached by the
 * engine per (statement, snapshot set): snapshots are immutable, so none of it goes stale.
 */
final class QueryPlan {
  /** Most distinct renderings kept per plan (they differ only by which inputs are cached). */
  private static final int MAX_RENDERINGS = 16;

  private final StatementRewriter statement;
  private final Map<TableRef, Schema> schemas;
  private final Map<TableRef, ScanRequest> requests;
  private final Map<List<String>, String> rendered = new ConcurrentHashMap<>();
  private volatile Schema resultSchema;
  private volatile ResultShape shape; // set once planning saw a result clients cannot read as is

  private final java.util.Set<TableRef> rereadTables;
  private final int textLength;

  private QueryPlan(
      StatementRewriter statement,
      Map<TableRef, Schema> schemas,
      Map<TableRef, ScanRequest> requests,
      java.util.Set<TableRef> rereadTables,
      int textLength) {
    this.textLength = textLength;
    this.statement = statement;
    this.schemas = schemas;
    this.requests = requests;
    this.rereadTables = java.util.Set.copyOf(rereadTables);
  }

  /** Tables the statement reads more than once; see {@link ScanAnalysis#readMoreThanOnce()}. */
  java.util.Set<TableRef> rereadTables() {
    return rereadTables;
  }

  static QueryPlan build(
      StatementRewriter statement,
      ScanAnalysis analysis,
      Map<TableRef, Schema> schemas,
      SqlParser parser,
      int batchSize,
      int parallelism,
      int textLength) {
    Map<TableRef, ScanRequest> requests = new LinkedHashMap<>();
    for (Map.Entry<TableRef, Schema> e : schemas.entrySet()) {
      Schema schema = e.getValue();
      requests.put(
          e.getKey(),
          new ScanRequest(
              analysis.columns(schema),
              Predicates.resolve(analysis.candidates(e.getKey(), schemas), schema, parser),
              batchSize,
              parallelism));
    }
    return new QueryPlan(
        statement,
        Map.copyOf(schemas),
        Map.copyOf(requests),
        analysis.readMoreThanOnce(),
        textLength);
  }

  /** Characters of the statement text the plan was built for (its cache weight). */
  int textLength() {
    return textLength;
  }

  StatementRewriter statement() {
    return statement;
  }

  Schema schema(TableRef ref) {
    return schemas.get(ref);
  }

  ScanRequest request(TableRef ref) {
    return requests.get(ref);
  }

  /** The columns a scan of {@code ref} reads, all of them spelled out (table order). */
  List<String> columns(TableRef ref) {
    List<String> columns = requests.get(ref).columns();
    return columns.isEmpty()
        ? schemas.get(ref).getFields().stream().map(f -> f.getName()).toList()
        : columns;
  }

  /**
   * The statement over {@code targets} (table → input name) and {@code inline} (table → a
   * file-reading {@code SELECT} of a table reader, inlined as a subquery), rendered once per
   * distinct inputs; with {@code emptyResult} for planning (see {@link StatementRewriter#render}).
   */
  String render(
      Map<TableRef, String> targets,
      Map<TableRef, String> inline,
      SqlParser parser,
      boolean emptyResult) {
    List<String> key = new java.util.ArrayList<>();
    targets.forEach((ref, name) -> key.add(ref + "=" + name));
    inline.forEach((ref, select) -> key.add(ref + ":" + select));
    key.add(emptyResult ? "plan" : "run");
    ResultShape shaping = statement.explain() ? null : shape;
    key.add(shaping == null ? "raw" : "shaped");
    String sql = rendered.get(key);
    if (sql == null) {
      Map<TableRef, com.fasterxml.jackson.databind.JsonNode> parsed = new LinkedHashMap<>();
      inline.forEach((ref, select) -> parsed.put(ref, parseScan(select, parser)));
      sql = statement.render(targets, parsed, parser, emptyResult);
      if (shaping != null) {
        sql = shaping.wrap(sql);
      }
      if (rendered.size() >= MAX_RENDERINGS) {
        rendered.clear();
      }
      rendered.put(key, sql);
    }
    return sql;
  }

  /** A reader's file-reading SELECT as a parse tree (not admitted: it is lake's own text). */
  private static com.fasterxml.jackson.databind.JsonNode parseScan(
      String select, SqlParser parser) {
    com.fasterxml.jackson.databind.JsonNode tree = parser.serialize(select);
    if (tree.path("error").asBoolean(true) || tree.path("statements").size() != 1) {
      throw new dev.lake.core.LakeException(
          dev.lake.core.ErrorCode.INTERNAL, "A table reader's scan is not one SELECT");
    }
    return tree.path("statements").get(0);
  }

  Schema resultSchema() {
    return resultSchema;
  }

  void resultSchema(Schema schema) {
    this.resultSchema = schema;
  }

  /** Renderings from now on are wrapped in {@code shape} ({@link ResultShape}). */
  void shape(ResultShape shape) {
    this.shape = shape;
  }
}
