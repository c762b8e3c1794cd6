package dev.lake.engine;

import com.fasterxml.jackson.databind.JsonNode;
import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import dev.lake.core.AdmittedQuery;
import dev.lake.core.ErrorCode;
import dev.lake.core.LakeException;
import dev.lake.core.Snapshot;
import dev.lake.core.SnapshotSet;
import dev.lake.core.SplitPlan;
import dev.lake.core.SplitSource;
import dev.lake.core.TableReader;
import dev.lake.core.TableRef;
import java.sql.SQLException;
import java.util.Iterator;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Function;
import org.apache.arrow.vector.types.pojo.Schema;

/**
 * Decides how a statement over its one table runs as durable fan-out ({@link SplitPlan}): a
 * row-local statement (its result over the union of disjoint parts of the table is exactly the
 * concatenation of its results over each part) splits as it is; a limited one or one with
 * decomposable aggregates splits with a combine step ({@link Decomposition}, {@link CombineSql}).
 * Conservative: exactly one {@code SELECT} (no set operation, CTE, subquery or join) over one base
 * table, no {@code HAVING}, {@code QUALIFY}, {@code DISTINCT}, sample or window, and every function
 * called in a row's expressions is a scalar whose every overload DuckDB declares {@code CONSISTENT}
 * (so no {@code now()} or {@code random()} whose value would differ between splits); the bare names
 * DuckDB binds to the session or time ({@code current_timestamp}) also disqualify. Verdicts are
 * cached per text.
 */
final class SplitShape {

  private final SqlParser parser;
  private final Set<String> rowLocalFunctions;
  private final Set<String> otherFunctions;
  private final Cache<String, Optional<Decomposition>> verdicts =
      Caffeine.newBuilder()
          .maximumWeight(4L << 20)
          .weigher((String k, Optional<Decomposition> v) -> k.length())
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
   * A SELECT over one table that decomposes, whose reader is a {@link SplitSource}, splits as that
   * reader cuts the table; anything else is {@link SplitPlan#single}. {@code planner} plans a
   * statement over {@code snapshots} (the statement's result and its children's partials).
   */
  SplitPlan splits(
      AdmittedQuery query,
      SnapshotSet snapshots,
      long targetRows,
      int maxSplits,
      Function<Snapshot, TableReader> readers,
      Function<AdmittedQuery, Schema> planner) {
    SplitPlan single = SplitPlan.single(query, snapshots);
    if (maxSplits < 2
        || query.kind() != AdmittedQuery.Kind.SELECT
        || snapshots.snapshots().size() != 1) {
      return single;
    }
    Optional<Decomposition> shape = decomposition(query.sql());
    if (shape.isEmpty()) {
      return single;
    }
    TableRef ref = snapshots.snapshots().keySet().iterator().next();
    Snapshot whole = snapshots.resolve(ref);
    if (!(readers.apply(whole) instanceof SplitSource source)) {
      return single;
    }
    List<Snapshot> parts = source.splits(ref, whole, targetRows, maxSplits);
    if (parts.size() < 2) {
      return single;
    }
    List<SnapshotSet> splits = parts.stream().map(s -> new SnapshotSet(Map.of(ref, s))).toList();
    Optional<SplitPlan> plan;
    if (shape.get() instanceof Decomposition.Limited l) {
      plan =
          CombineSql.limited(l, planner.apply(query))
              .map(c -> new SplitPlan(splits, query.sql(), Optional.of(c)));
    } else if (shape.get() instanceof Decomposition.Grouped g) {
      String child = parser.deserialize(g.child());
      Schema partials =
          planner.apply(new AdmittedQuery(child, AdmittedQuery.Kind.SELECT, query.tables()));
      plan =
          CombineSql.grouped(g, planner.apply(query), partials)
              .map(c -> new SplitPlan(splits, child, Optional.of(c)));
    } else {
      plan = Optional.of(new SplitPlan(splits, query.sql(), Optional.empty()));
    }
    return plan.orElse(single);
  }

  /** How {@code sql} (one admitted statement) decomposes over its one table, if it does. */
  Optional<Decomposition> decomposition(String sql) {
    return verdicts.get(sql, this::judge);
  }

  private Optional<Decomposition> judge(String sql) {
    JsonNode tree = parser.serialize(sql);
    if (tree.path("error").asBoolean(true) || tree.path("statements").size() != 1) {
      return Optional.empty();
    }
    return Decomposition.of(tree.path("statements").get(0), this::clean);
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
