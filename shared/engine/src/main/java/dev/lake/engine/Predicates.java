package dev.lake.engine;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.lake.core.ScanRequest;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.apache.arrow.vector.types.DateUnit;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.Schema;

/**
 * Turns candidate conjuncts into scan predicates whose literal is the constant folded by DuckDB and
 * cast EXACTLY to the column's type; a constant that does not survive the cast unchanged, a NULL,
 * or a column type without a safe literal form is not pushed.
 */
final class Predicates {
  static final Map<String, String> OPS =
      Map.of(
          "COMPARE_EQUAL", "=",
          "COMPARE_NOTEQUAL", "<>",
          "COMPARE_LESSTHAN", "<",
          "COMPARE_GREATERTHAN", ">",
          "COMPARE_LESSTHANOREQUALTO", "<=",
          "COMPARE_GREATERTHANOREQUALTO", ">=");

  /** Deterministic functions a constant subtree may use (arithmetic, interval builders). */
  private static final Set<String> CONSTANT_FUNCTIONS =
      Set.of(
          "+",
          "-",
          "*",
          "/",
          "trunc",
          "to_years",
          "to_months",
          "to_weeks",
          "to_days",
          "to_hours",
          "to_minutes",
          "to_seconds");

  private Predicates() {}

  static String flip(String op) {
    switch (op) {
      case "<":
        return ">";
      case ">":
        return "<";
      case "<=":
        return ">=";
      case ">=":
        return "<=";
      default:
        return op;
    }
  }

  /** Whether the subtree is a constant built only from literals, casts and arithmetic. */
  static boolean isConstant(JsonNode expr) {
    switch (expr.path("class").asText()) {
      case "CONSTANT":
        return true;
      case "CAST":
        return !expr.path("try_cast").asBoolean() && isConstant(expr.path("child"));
      case "FUNCTION":
        if (!CONSTANT_FUNCTIONS.contains(expr.path("function_name").asText())
            || !expr.path("filter").isNull()) {
          return false;
        }
        for (JsonNode c : expr.path("children")) {
          if (!isConstant(c)) {
            return false;
          }
        }
        return true;
      default:
        return false;
    }
  }

  /** DuckDB's name for an Arrow type when a pushed literal can be cast to it safely. */
  static Optional<String> duckType(ArrowType type) {
    if (type instanceof ArrowType.Int) {
      switch (((ArrowType.Int) type).getBitWidth()) {
        case 8:
          return Optional.of("TINYINT");
        case 16:
          return Optional.of("SMALLINT");
        case 32:
          return Optional.of("INTEGER");
        default:
          return Optional.of("BIGINT");
      }
    }
    if (type instanceof ArrowType.Decimal) {
      ArrowType.Decimal d = (ArrowType.Decimal) type;
      return Optional.of("DECIMAL(" + d.getPrecision() + "," + d.getScale() + ")");
    }
    if (type instanceof ArrowType.Date && ((ArrowType.Date) type).getUnit() == DateUnit.DAY) {
      return Optional.of("DATE");
    }
    if (type instanceof ArrowType.Utf8) {
      return Optional.of("VARCHAR");
    }
    return Optional.empty();
  }

  /** The predicates of {@code candidates} that can be pushed into a scan of {@code schema}. */
  static List<ScanRequest.Predicate> resolve(
      List<ScanAnalysis.Candidate> candidates, Schema schema, SqlParser parser) {
    List<ScanRequest.Predicate> out = new ArrayList<>();
    for (ScanAnalysis.Candidate c : candidates) {
      Field field = null;
      for (Field f : schema.getFields()) {
        if (f.getName().equalsIgnoreCase(c.column())) {
          field = f;
        }
      }
      final Field column = field;
      if (column == null || !column.getName().matches("[a-z_][a-z0-9_]{0,127}")) {
        continue;
      }
      Optional<String> type = duckType(column.getType());
      if (type.isEmpty()) {
        continue;
      }
      boolean stringConstant =
          c.constant().path("class").asText().equals("CONSTANT")
              && c.constant().path("value").path("type").path("id").asText().equals("VARCHAR");
      if (type.get().equals("VARCHAR") != stringConstant) {
        continue; // DuckDB would cast the column, not the literal: not a plain comparison
      }
      fold(c.constant(), type.get(), parser)
          .ifPresent(
              lit -> out.add(ScanAnalysis.predicate(column.getName(), c.op(), lit, type.get())));
    }
    return out;
  }

  /** Folds the constant with DuckDB; empty unless the cast to {@code type} is exact. */
  private static Optional<String> fold(JsonNode constant, String type, SqlParser parser) {
    ObjectNode select = SqlParser.mapper().createObjectNode();
    ObjectNode node = select.putObject("node");
    node.put("type", "SELECT_NODE");
    node.putArray("modifiers");
    node.putObject("cte_map").putArray("map");
    ObjectNode x = constant.deepCopy();
    x.put("alias", "x");
    node.putArray("select_list").add(x);
    ObjectNode empty = node.putObject("from_table");
    empty.put("type", "EMPTY");
    empty.put("alias", "");
    empty.putNull("sample");
    empty.put("query_location", 0);
    node.putNull("where_clause");
    node.putArray("group_expressions");
    node.putArray("group_sets");
    node.put("aggregate_handling", "STANDARD_HANDLING");
    node.putNull("having");
    node.putNull("sample");
    node.putNull("qualify");
    select.putArray("named_param_map");
    try {
      String inner = parser.deserialize(select);
      String sql =
          "SELECT CAST(CAST(x AS "
              + type
              + ") AS VARCHAR), CAST(x AS "
              + type
              + ") = x, x IS NULL FROM ("
              + inner
              + ") c";
      String[] row = parser.evaluateRow(sql);
      if (row == null || !"true".equals(row[1]) || "true".equals(row[2])) {
        return Optional.empty();
      }
      return Optional.of(row[0]);
    } catch (SQLException | RuntimeException e) {
      return Optional.empty(); // not foldable here: simply not pushed
    }
  }
}
