package dev.lake.iceberg;

import dev.lake.core.ScanRequest;
import java.math.BigDecimal;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.util.List;
import java.util.Optional;
import org.apache.iceberg.Schema;
import org.apache.iceberg.expressions.Expression;
import org.apache.iceberg.expressions.Expressions;
import org.apache.iceberg.types.Type;
import org.apache.iceberg.types.Types;
import org.apache.iceberg.util.DateTimeUtil;

/**
 * Converts the engine's simple predicates into an Iceberg expression for partition and file
 * pruning. Conservative by construction: a predicate is converted only when Iceberg's comparison of
 * that type agrees with DuckDB's (integers, exact decimals, strings, dates, timestamps without
 * zone, booleans); anything else becomes "true" (no pruning). The engine re-applies every
 * predicate. float/double are never pushed: Iceberg orders -0.0 before 0.0, DuckDB treats them as
 * equal.
 */
final class Filters {
  private Filters() {}

  static Expression toExpression(Schema schema, List<ScanRequest.Predicate> predicates) {
    Expression out = Expressions.alwaysTrue();
    for (ScanRequest.Predicate p : predicates) {
      Optional<Expression> e = convert(schema, p);
      if (e.isPresent()) {
        out = Expressions.and(out, e.get());
      }
    }
    return out;
  }

  static Optional<Expression> convert(Schema schema, ScanRequest.Predicate p) {
    Types.NestedField field = schema.caseInsensitiveFindField(p.column());
    // Only top-level columns: nested names would need a path the engine does not send.
    if (field == null || schema.columns().stream().noneMatch(c -> c.fieldId() == field.fieldId())) {
      return Optional.empty();
    }
    Optional<Object> value = literal(field.type(), p.literal());
    if (value.isEmpty()) {
      return Optional.empty();
    }
    String name = field.name();
    Object v = value.get();
    return Optional.of(
        switch (p.op()) {
          case "=" -> Expressions.equal(name, v);
          case "<>" -> Expressions.notEqual(name, v);
          case "<" -> Expressions.lessThan(name, v);
          case "<=" -> Expressions.lessThanOrEqual(name, v);
          case ">" -> Expressions.greaterThan(name, v);
          case ">=" -> Expressions.greaterThanOrEqual(name, v);
          default -> Expressions.alwaysTrue();
        });
  }

  /** The literal as the Java value Iceberg expects for {@code type}, if exactly representable. */
  static Optional<Object> literal(Type type, String text) {
    String s = unquote(text.trim());
    try {
      return switch (type.typeId()) {
        case INTEGER -> {
          long l = Long.parseLong(s);
          yield l >= Integer.MIN_VALUE && l <= Integer.MAX_VALUE
              ? Optional.of((int) l)
              : Optional.empty();
        }
        case LONG -> Optional.of(Long.parseLong(s));
        case DECIMAL -> {
          int scale = ((Types.DecimalType) type).scale();
          // setScale without rounding: a literal with more digits than the column is not pushed.
          yield Optional.of(new BigDecimal(s).setScale(scale));
        }
        case STRING -> Optional.of(s);
        case BOOLEAN ->
            s.equalsIgnoreCase("true")
                ? Optional.of(true)
                : s.equalsIgnoreCase("false") ? Optional.of(false) : Optional.empty();
        case DATE -> Optional.of((int) LocalDate.parse(s).toEpochDay());
        case TIMESTAMP ->
            ((Types.TimestampType) type).shouldAdjustToUTC()
                ? Optional.empty()
                : Optional.of(
                    DateTimeUtil.microsFromTimestamp(LocalDateTime.parse(s.replace(' ', 'T'))));
        default -> Optional.empty();
      };
    } catch (RuntimeException e) {
      return Optional.empty();
    }
  }

  /** Strips SQL quoting: {@code 'it''s'} → {@code it's}; a typed form {@code DATE '…'} too. */
  static String unquote(String s) {
    int q = s.indexOf('\'');
    if (q >= 0 && s.endsWith("'") && s.length() - 1 > q) {
      return s.substring(q + 1, s.length() - 1).replace("''", "'");
    }
    return s;
  }
}
