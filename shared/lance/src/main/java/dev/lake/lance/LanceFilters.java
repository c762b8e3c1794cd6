package dev.lake.lance;

import dev.lake.core.ScanRequest;
import dev.lake.core.SqlQuoting;
import java.util.List;
import java.util.StringJoiner;

/**
 * Renders scan predicates as a Lance (DataFusion SQL) filter. Literals are always cast to the
 * column's type, as Lance requires (e.g. {@code `l_discount` >= CAST('0.05' AS DECIMAL(15,2))}).
 */
final class LanceFilters {
  private LanceFilters() {}

  static String toFilter(List<ScanRequest.Predicate> predicates) {
    StringJoiner and = new StringJoiner(" AND ");
    for (ScanRequest.Predicate p : predicates) {
      if (!p.column().matches("[a-z_][a-z0-9_]{0,127}")) {
        continue;
      }
      String literal = SqlQuoting.literal(p.literal());
      String type = p.type().orElse("VARCHAR");
      if (!type.matches("[A-Z]+(\\([0-9]+(,[0-9]+)?\\))?")) {
        continue;
      }
      String value = type.equals("VARCHAR") ? literal : "CAST(" + literal + " AS " + type + ")";
      and.add("`" + p.column() + "` " + p.op() + " " + value);
    }
    return and.toString();
  }
}
