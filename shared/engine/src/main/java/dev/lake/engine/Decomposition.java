package dev.lake.engine;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Set;
import java.util.function.Predicate;

/**
 * How one SELECT over one base table decomposes into per-split children, read from DuckDB's parse
 * tree (never from text). Three shapes split:
 *
 * <ul>
 *   <li>{@link RowLocal}: projection and filter; the children's rows, concatenated, are the result.
 *   <li>{@link Limited}: a row-local statement with {@code LIMIT n} (no {@code OFFSET}), optionally
 *       {@code ORDER BY} output columns (by name or position): each child runs the statement itself
 *       (its split's first or top {@code n} rows), the combine step applies the same order and
 *       limit to their union.
 *   <li>{@link Grouped}: {@code count(*)}, {@code count}, {@code sum}, {@code min}, {@code max} and
 *       {@code avg} over row-local arguments (no {@code DISTINCT}, {@code FILTER} or ordered
 *       aggregate), optionally {@code GROUP BY} plain columns with every other select item one of
 *       them; optionally ordered by output columns (the combine step sorts the groups) and limited.
 *       Each child computes partial aggregates per group ({@code avg} as a sum and a count), the
 *       combine step merges them.
 * </ul>
 *
 * Everything else — {@code HAVING}, {@code DISTINCT}, {@code QUALIFY}, windows, set operations,
 * CTEs, subqueries, joins, samples, grouping sets, an order without a limit — does not decompose.
 */
sealed interface Decomposition {
  /** Aggregates whose partial and final steps lake writes. */
  Set<String> AGGREGATES = Set.of("count_star", "count", "sum", "min", "max", "avg");

  /**
   * Above this limit a statement runs on one worker: the combine step reads splits × limit rows.
   */
  long MAX_COMBINED_LIMIT = 100_000;

  /** Projection and filter only. */
  record RowLocal() implements Decomposition {}

  /** A row-local statement with a limit and an optional order over its output columns. */
  record Limited(List<OrderTerm> order, long limit) implements Decomposition {
    public Limited {
      order = List.copyOf(order);
    }
  }

  /**
   * Decomposable aggregates. {@code child} is the statement node each split runs: the group columns
   * as {@code lake_k<i>}, then the partial aggregates as {@code lake_p<j>}.
   */
  record Grouped(
      ObjectNode child, List<Output> outputs, int keys, List<OrderTerm> order, OptionalLong limit)
      implements Decomposition {
    public Grouped {
      outputs = List.copyOf(outputs);
      order = List.copyOf(order);
    }
  }

  /** One output column of a {@link Grouped} statement: a group key or an aggregate. */
  record Output(String function, int column) {}

  /**
   * One {@code ORDER BY} term as written: a column name ({@code position} −1) or a 1-based output
   * position ({@code name} null); resolved against the planned output names when the plan is made.
   */
  record OrderTerm(String name, int position, boolean descending, boolean nullsFirst) {}

  /**
   * The decomposition of {@code statement} (a {@code statements[i]} element of DuckDB's JSON), if
   * it has one; {@code rowLocal} tells whether an expression computes each row from that row alone.
   */
  static Optional<Decomposition> of(JsonNode statement, Predicate<JsonNode> rowLocal) {
    JsonNode node = statement.path("node");
    JsonNode from = node.path("from_table");
    boolean oneTable =
        node.path("type").asText().equals("SELECT_NODE")
            && node.path("cte_map").path("map").isEmpty()
            && isNull(node, "having")
            && isNull(node, "qualify")
            && isNull(node, "sample")
            && node.path("aggregate_handling").asText().equals("STANDARD_HANDLING")
            && from.path("type").asText().equals("BASE_TABLE")
            && isNull(from, "sample")
            && rowLocal.test(node.path("where_clause"));
    if (!oneTable) {
      return Optional.empty();
    }
    List<OrderTerm> order = new ArrayList<>();
    long limit = -1;
    for (JsonNode modifier : node.path("modifiers")) {
      String type = modifier.path("type").asText();
      if (type.equals("ORDER_MODIFIER") && order.isEmpty() && limit < 0) {
        for (JsonNode o : modifier.path("orders")) {
          Optional<OrderTerm> term = orderTerm(o);
          if (term.isEmpty()) {
            return Optional.empty();
          }
          order.add(term.get());
        }
      } else if (type.equals("LIMIT_MODIFIER") && limit < 0 && isNull(modifier, "offset")) {
        limit = constantCount(modifier.path("limit"));
        if (limit < 0 || limit > MAX_COMBINED_LIMIT) {
          return Optional.empty();
        }
      } else {
        return Optional.empty(); // DISTINCT, OFFSET, LIMIT n%, a second modifier
      }
    }
    JsonNode select = node.path("select_list");
    boolean aggregates = hasAggregate(select);
    if (node.path("group_expressions").isEmpty() && !aggregates) {
      if (!rowLocal.test(select) || (!order.isEmpty() && limit < 0)) {
        return Optional.empty(); // a full sort would merge every child's rows: one worker
      }
      return Optional.of(limit < 0 ? new RowLocal() : new Limited(order, limit));
    }
    return grouped(statement, order, limit, rowLocal);
  }

  private static Optional<Decomposition> grouped(
      JsonNode statement, List<OrderTerm> order, long limit, Predicate<JsonNode> rowLocal) {
    JsonNode node = statement.path("node");
    JsonNode groups = node.path("group_expressions");
    List<String> keys = new ArrayList<>();
    for (JsonNode g : groups) {
      if (!g.path("class").asText().equals("COLUMN_REF") || g.path("column_names").size() != 1) {
        return Optional.empty(); // GROUP BY 1, an expression, a qualified name
      }
      keys.add(g.path("column_names").get(0).asText().toLowerCase(Locale.ROOT));
    }
    if (!rowLocal.test(groups)) {
      return Optional.empty();
    }
    JsonNode sets = node.path("group_sets");
    if (!keys.isEmpty()
        && (sets.size() != 1
            || sets.get(0).size() != keys.size()
            || keys.size() != distinct(keys))) {
      return Optional.empty(); // ROLLUP, CUBE, GROUPING SETS
    }
    ObjectNode child = node.deepCopy();
    child.putArray("modifiers");
    ArrayNode childSelect = child.putArray("select_list");
    for (int i = 0; i < groups.size(); i++) {
      childSelect.add(((ObjectNode) groups.get(i).deepCopy()).put("alias", "lake_k" + i));
    }
    List<Output> outputs = new ArrayList<>();
    for (JsonNode item : node.path("select_list")) {
      String cls = item.path("class").asText();
      if (cls.equals("COLUMN_REF") && item.path("column_names").size() == 1) {
        int key = keys.indexOf(item.path("column_names").get(0).asText().toLowerCase(Locale.ROOT));
        if (key < 0) {
          return Optional.empty();
        }
        outputs.add(new Output("key", key));
        continue;
      }
      String function = item.path("function_name").asText("").toLowerCase(Locale.ROOT);
      boolean plain =
          cls.equals("FUNCTION")
              && AGGREGATES.contains(function)
              && item.path("schema").asText("").isEmpty()
              && !item.path("distinct").asBoolean(true)
              && isNull(item, "filter")
              && item.path("order_bys").path("orders").isEmpty()
              && !item.path("export_state").asBoolean(true)
              && item.path("children").size() == (function.equals("count_star") ? 0 : 1)
              && rowLocal.test(item.path("children"))
              && !hasParameter(item);
      if (!plain) {
        return Optional.empty();
      }
      outputs.add(new Output(function, childSelect.size()));
      if (function.equals("avg")) {
        childSelect.add(partial(item, "sum", childSelect.size()));
        childSelect.add(partial(item, "count", childSelect.size()));
      } else {
        childSelect.add(partial(item, function, childSelect.size()));
      }
    }
    ObjectNode childStatement = statement.deepCopy();
    childStatement.set("node", child);
    return Optional.of(
        new Grouped(
            childStatement,
            outputs,
            keys.size(),
            order,
            limit < 0 ? OptionalLong.empty() : OptionalLong.of(limit)));
  }

  private static ObjectNode partial(JsonNode aggregate, String function, int column) {
    ObjectNode p = aggregate.deepCopy();
    p.put("function_name", function);
    p.put("alias", "lake_p" + column);
    return p;
  }

  private static Optional<OrderTerm> orderTerm(JsonNode o) {
    boolean descending = o.path("type").asText().equals("DESCENDING");
    // DuckDB's default null order is NULLS LAST in both directions (default_null_order)
    boolean nullsFirst = o.path("null_order").asText().equals("NULLS_FIRST");
    JsonNode e = o.path("expression");
    if (e.path("class").asText().equals("COLUMN_REF") && e.path("column_names").size() == 1) {
      return Optional.of(
          new OrderTerm(e.path("column_names").get(0).asText(), -1, descending, nullsFirst));
    }
    long position = constantCount(e);
    return position >= 1 && position <= Integer.MAX_VALUE
        ? Optional.of(new OrderTerm(null, (int) position, descending, nullsFirst))
        : Optional.empty();
  }

  /** A non-negative integer constant, or −1. */
  private static long constantCount(JsonNode e) {
    JsonNode value = e.path("value");
    String type = value.path("type").path("id").asText();
    boolean integer =
        Set.of("TINYINT", "SMALLINT", "INTEGER", "BIGINT").contains(type)
            || type.equals("UTINYINT")
            || type.equals("USMALLINT")
            || type.equals("UINTEGER");
    if (!e.path("class").asText().equals("CONSTANT")
        || !integer
        || value.path("is_null").asBoolean(true)
        || !value.path("value").canConvertToLong()) {
      return -1;
    }
    long v = value.path("value").asLong();
    return v < 0 ? -1 : v;
  }

  private static boolean hasAggregate(JsonNode select) {
    for (JsonNode item : select) {
      if (item.path("class").asText().equals("FUNCTION")
          && AGGREGATES.contains(item.path("function_name").asText("").toLowerCase(Locale.ROOT))) {
        return true;
      }
    }
    return false;
  }

  private static boolean hasParameter(JsonNode node) {
    if (node.path("class").asText().equals("PARAMETER")) {
      return true;
    }
    for (JsonNode child : node) {
      if (hasParameter(child)) {
        return true;
      }
    }
    return false;
  }

  private static int distinct(List<String> names) {
    return (int) names.stream().distinct().count();
  }

  private static boolean isNull(JsonNode node, String field) {
    JsonNode value = node.get(field);
    return value == null || value.isNull();
  }
}
