package dev.lake.engine;

import com.fasterxml.jackson.databind.JsonNode;
import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import dev.lake.core.AdmittedQuery;
import dev.lake.core.ErrorCode;
import dev.lake.core.LakeException;
import dev.lake.core.Snapshot;
import dev.lake.core.SnapshotSet;
import dev.lake.core.SplitSource;
import dev.lake.core.TableReader;
import dev.lake.core.TableRef;
import java.sql.SQLException;
import java.util.Iterator;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;

/**
 * Decides whether a statement is row-local over its one table: its result over the union of
 * disjoint parts of the table is exactly the concatenation of its results over each part, so the
 * durable tier may run it as splits. Conservative: exactly one {@code SELECT} (no set operation,
 * CTE, subquery or join) over one base table, no {@code GROUP BY}, {@code HAVING}, {@code QUALIFY},
 * {@code DISTINCT}, {@code ORDER BY}, {@code LIMIT}, sample or window, and every function called is
 * a scalar whose every overload DuckDB declares {@code CONSISTENT} (so no aggregate, no {@code
 * now()} or {@code random()} whose value would differ between splits); the bare names DuckDB binds
 * to the session or time ({@code current_timestamp}) also disqualify. Verdicts are cached per text.
 */
final class SplitShape {

  private final SqlParser parser;
  private final Set<String> rowLocalFunctions;
  private final Set<String> otherFunctions;
  private final Cache<String, Boolean> verdicts =
      Caffeine.newBuilder()
          .maximumWeight(4L << 20)
          .weigher((String k, Boolean v) -> k.length())
          .build();

  /**
   * @param parser the engine's parser (not closed here)
   */
  SplitShape(SqlParser parser) {
    this.parser = parser;
    try {
      rowLocalFunctions =
          names("bool_and(function_type = 'scalar' AND coalesce(stability = 'CONSISTENT', false))");
      otherFunctions =
          names(
              "NOT bool_and(function_type = 'scalar' AND coalesce(stability = 'CONSISTENT',"
                  + " false))");
    } catch (SQLException e) {
      throw new LakeException(ErrorCode.INTERNAL, "Cannot read DuckDB's function catalog", e);
    }
  }

  private Set<String> names(String having) throws SQLException {
    String[] row =
        parser.evaluateRow(
            "SELECT string_agg(function_name, chr(10)) FROM (SELECT lower(function_name) AS"
                + " function_name FROM duckdb_functions() GROUP BY 1 HAVING "
                + having
                + ")");
    return row == null || row[0] == null ? Set.of() : Set.of(row[0].split("\n"));
  }

  /**
   * A row-local SELECT over one table whose reader is a {@link SplitSource} splits as that reader
   * cuts the table; anything else is the one-element list of {@code snapshots}.
   */
  List<SnapshotSet> splits(
      AdmittedQuery query,
      SnapshotSet snapshots,
      long targetRows,
      int maxSplits,
      Function<Snapshot, TableReader> readers) {
    if (maxSplits < 2
        || query.kind() != AdmittedQuery.Kind.SELECT
        || snapshots.snapshots().size() != 1
        || !rowLocal(query.sql())) {
      return List.of(snapshots);
    }
    TableRef ref = snapshots.snapshots().keySet().iterator().next();
    Snapshot whole = snapshots.resolve(ref);
    if (!(readers.apply(whole) instanceof SplitSource source)) {
      return List.of(snapshots);
    }
    List<Snapshot> parts = source.splits(ref, whole, targetRows, maxSplits);
    if (parts.size() < 2) {
      return List.of(snapshots);
    }
    return parts.stream().map(s -> new SnapshotSet(Map.of(ref, s))).toList();
  }

  /** True when {@code sql} (one admitted statement) is row-local over its one table. */
  boolean rowLocal(String sql) {
    return verdicts.get(sql, this::judge);
  }

  private boolean judge(String sql) {
    JsonNode tree = parser.serialize(sql);
    if (tree.path("error").asBoolean(true) || tree.path("statements").size() != 1) {
      return false;
    }
    JsonNode node = tree.path("statements").get(0).path("node");
    JsonNode from = node.path("from_table");
    return node.path("type").asText().equals("SELECT_NODE")
        && node.path("modifiers").isEmpty()
        && node.path("cte_map").path("map").isEmpty()
        && node.path("group_expressions").isEmpty()
        && node.path("group_sets").isEmpty()
        && isNull(node, "having")
        && isNull(node, "qualify")
        && isNull(node, "sample")
        && node.path("aggregate_handling").asText().equals("STANDARD_HANDLING")
        && from.path("type").asText().equals("BASE_TABLE")
        && isNull(from, "sample")
        && clean(node.path("select_list"))
        && clean(node.path("where_clause"));
  }

  private static boolean isNull(JsonNode node, String field) {
    JsonNode value = node.get(field);
    return value == null || value.isNull();
  }

  /** Whether an expression tree computes each row from that row alone, the same on any worker. */
  private boolean clean(JsonNode node) {
    if (node.isArray()) {
      for (JsonNode child : node) {
        if (!clean(child)) {
          return false;
        }
      }
      return true;
    }
    if (!node.isObject()) {
      return true;
    }
    String cls = node.path("class").asText("");
    if (cls.equals("SUBQUERY") || cls.equals("WINDOW")) {
      return false;
    }
    if (cls.equals("FUNCTION")) {
      String name = node.path("function_name").asText("").toLowerCase(Locale.ROOT);
      if (!rowLocalFunctions.contains(name) || otherFunctions.contains(name)) {
        return false;
      }
    }
    if (cls.equals("COLUMN_REF") && node.path("column_names").size() == 1) {
      String name = node.path("column_names").get(0).asText("").toLowerCase(Locale.ROOT);
      if (Determinism.SPECIAL_NAMES.contains(name) || otherFunctions.contains(name)) {
        return false;
      }
    }
    for (Iterator<Map.Entry<String, JsonNode>> it = node.fields(); it.hasNext(); ) {
      if (!clean(it.next().getValue())) {
        return false;
      }
    }
    return true;
  }
}
