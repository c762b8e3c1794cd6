package dev.lake.engine;

import static dev.lake.core.SqlQuoting.identifier;

import dev.lake.core.SplitPlan;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;
import org.apache.arrow.vector.types.FloatingPointPrecision;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.Schema;

/**
 * Writes the combine step of a {@link Decomposition} ({@link SplitPlan#combineSql}) from the
 * statement's planned result and, for aggregates, its children's planned partial columns: lake's
 * own SQL over {@code partials} whose columns, names and types are exactly the statement's. Types
 * are checked here, before any child runs: a statement whose final step could not reproduce its
 * types (a nested column, a sum DuckDB widens differently) does not split.
 */
final class CombineSql {
  private CombineSql() {}

  /** The combine step of a {@link Decomposition.Limited} statement planned as {@code result}. */
  static Optional<String> limited(Decomposition.Limited limited, Schema result) {
    if (!plain(result)) {
      return Optional.empty();
    }
    return orderBy(limited.order(), result)
        .map(order -> "SELECT * FROM " + SplitPlan.PARTIALS + order + " LIMIT " + limited.limit());
  }

  /**
   * The combine step of a {@link Decomposition.Grouped} statement planned as {@code result}, whose
   * children are planned as {@code partials}.
   */
  static Optional<String> grouped(Decomposition.Grouped grouped, Schema result, Schema partials) {
    List<Field> out = result.getFields();
    List<Field> in = partials.getFields();
    if (!plain(result) || !plain(partials) || out.size() != grouped.outputs().size()) {
      return Optional.empty();
    }
    List<String> columns = new ArrayList<>();
    for (int i = 0; i < out.size(); i++) {
      Decomposition.Output o = grouped.outputs().get(i);
      Optional<String> expression = finalStep(o, out.get(i).getType(), in);
      if (expression.isEmpty()) {
        return Optional.empty();
      }
      columns.add(expression.get() + " AS " + identifier(out.get(i).getName()));
    }
    Optional<String> order = orderBy(grouped.order(), result);
    if (order.isEmpty()) {
      return Optional.empty();
    }
    StringBuilder sql =
        new StringBuilder("SELECT ")
            .append(String.join(", ", columns))
            .append(" FROM ")
            .append(SplitPlan.PARTIALS);
    for (int k = 0; k < grouped.keys(); k++) {
      sql.append(k == 0 ? " GROUP BY " : ", ").append(column(in, k));
    }
    sql.append(order.get());
    grouped.limit().ifPresent(n -> sql.append(" LIMIT ").append(n));
    return Optional.of(sql.toString());
  }

  /** The final step of one output over the partial columns, typed as {@code type}. */
  private static Optional<String> finalStep(
      Decomposition.Output o, ArrowType type, List<Field> partials) {
    String c = column(partials, o.column());
    ArrowType partial = partials.get(o.column()).getType();
    return switch (o.function()) {
      case "key" -> Optional.of(c).filter(x -> type.equals(partial));
      case "count", "count_star" ->
          Optional.of("CAST(sum(" + c + ") AS BIGINT)")
              .filter(x -> type.equals(new ArrowType.Int(64, true)));
      // sum of a decimal is DECIMAL(38, s) and of a double a double, both closed under sum
      case "sum" ->
          Optional.of("sum(" + c + ")")
              .filter(x -> type.equals(partial) && (wideDecimal(type) || isDouble(type)));
      case "min", "max" ->
          Optional.of(o.function() + "(" + c + ")").filter(x -> type.equals(partial));
      case "avg" -> avg(c, column(partials, o.column() + 1), partial).filter(x -> isDouble(type));
      default -> Optional.empty();
    };
  }

  /**
   * DuckDB's own average divides the exact sum by the count in extended precision; this divides the
   * exact unscaled sum (an integer, exact as a double below 2^53) by count × 10^scale, one
   * rounding, so the two agree. Averages of doubles are as exact as DuckDB's parallel sums.
   */
  private static Optional<String> avg(String sum, String count, ArrowType partial) {
    String divisor;
    String dividend;
    if (partial instanceof ArrowType.Decimal d && d.getPrecision() == 38) {
      String scale = "1" + "0".repeat(d.getScale());
      dividend = "CAST(CAST(sum(" + sum + ") * " + scale + " AS HUGEINT) AS DOUBLE)";
      divisor = "(CAST(sum(" + count + ") AS DOUBLE) * " + scale + ".0)";
    } else if (isDouble(partial)) {
      dividend = "sum(" + sum + ")";
      divisor = "CAST(sum(" + count + ") AS DOUBLE)";
    } else {
      return Optional.empty();
    }
    return Optional.of(
        "CASE WHEN sum(" + count + ") = 0 THEN NULL ELSE " + dividend + " / " + divisor + " END");
  }

  /** The ORDER BY clause over output positions, or empty when a term names no one column. */
  private static Optional<String> orderBy(List<Decomposition.OrderTerm> terms, Schema result) {
    StringBuilder sql = new StringBuilder();
    List<Field> fields = result.getFields();
    for (Decomposition.OrderTerm t : terms) {
      int position = t.position();
      if (t.name() != null) {
        position = -1;
        for (int i = 0; i < fields.size(); i++) {
          if (fields.get(i).getName().equalsIgnoreCase(t.name())) {
            position = i + 1;
          }
        }
      }
      if (position < 1 || position > fields.size()) {
        return Optional.empty(); // ordered by something the output does not hold
      }
      sql.append(sql.isEmpty() ? " ORDER BY " : ", ")
          .append(position)
          .append(t.descending() ? " DESC" : " ASC")
          .append(t.nullsFirst() ? " NULLS FIRST" : " NULLS LAST");
    }
    return Optional.of(sql.toString());
  }

  /**
   * Flat columns with names unique regardless of case (the combine step names them; an ORDER BY
   * name must find one).
   */
  private static boolean plain(Schema schema) {
    Set<String> names = new HashSet<>();
    for (Field f : schema.getFields()) {
      if (!f.getChildren().isEmpty() || !names.add(f.getName().toLowerCase(Locale.ROOT))) {
        return false;
      }
    }
    return true;
  }

  private static String column(List<Field> fields, int i) {
    return identifier(fields.get(i).getName());
  }

  private static boolean wideDecimal(ArrowType type) {
    return type instanceof ArrowType.Decimal d && d.getPrecision() == 38;
  }

  private static boolean isDouble(ArrowType type) {
    return type instanceof ArrowType.FloatingPoint f
        && f.getPrecision() == FloatingPointPrecision.DOUBLE;
  }
}
