package dev.lake.engine;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.Schema;

/**
 * How lake reshapes a result whose DuckDB types clients cannot read exactly, decided from the
 * statement's planned Arrow schema and applied by wrapping the rendered statement in a projection
 * (lake's own SQL around the parser-rendered text; no client text is spliced):
 *
 * <ul>
 *   <li>an unnamed STRUCT ({@code row(a, b)}, the tuple {@code (a, b)}, {@code list_zip}) gets the
 *       field names {@code f1, f2, …} (PostgreSQL's names for anonymous records): DuckDB exports
 *       its fields with empty names, which Arrow Java's importer collapses into one child;
 *   <li>unsigned integers become the next wider signed type ({@code UTINYINT → SMALLINT}, {@code
 *       USMALLINT → INTEGER}, {@code UINTEGER → BIGINT}, {@code UBIGINT → DECIMAL(20,0)}): JDBC and
 *       most Arrow clients read Arrow's unsigned types as signed, so large values arrive negative.
 * </ul>
 *
 * Both are fixed at any depth (inside structs, lists and maps). A result with neither is left as
 * DuckDB produces it ({@link #of} is empty), so the common statement pays nothing.
 */
final class ResultShape {
  /** The wrapped statement's alias; its columns are renamed positionally to {@code c1, c2, …}. */
  private static final String INNER = "lake_result";

  private final List<String> select;

  private ResultShape(List<String> select) {
    this.select = List.copyOf(select);
  }

  /** The shape {@code planned} needs, or empty when clients read it as it is. */
  static Optional<ResultShape> of(Schema planned) {
    List<String> select = new ArrayList<>();
    boolean changed = false;
    int i = 1;
    for (Field f : planned.getFields()) {
      String column = INNER + "." + quote("c" + i++);
      String shaped = shape(column, f, 0);
      changed |= shaped != null;
      select.add((shaped == null ? column : shaped) + " AS " + quote(f.getName()));
    }
    return changed ? Optional.of(new ResultShape(select)) : Optional.empty();
  }

  /** {@code sql} (one rendered SELECT) under the projection that shapes its result. */
  String wrap(String sql) {
    StringBuilder columns = new StringBuilder();
    for (int i = 1; i <= select.size(); i++) {
      columns.append(i > 1 ? ", " : "").append(quote("c" + i));
    }
    return "SELECT "
        + String.join(", ", select)
        + " FROM ("
        + sql
        + ") AS "
        + INNER
        + "("
        + columns
        + ")";
  }

  /** The expression reshaping {@code input} of type {@code field}, or null when it needs none. */
  private static String shape(String input, Field field, int depth) {
    ArrowType type = field.getType();
    if (type instanceof ArrowType.Int t && !t.getIsSigned()) {
      return "CAST(" + input + " AS " + widened(t.getBitWidth()) + ")";
    }
    if (type instanceof ArrowType.Struct) {
      return struct(input, field.getChildren(), depth);
    }
    if (type instanceof ArrowType.List
        || type instanceof ArrowType.LargeList
        || type instanceof ArrowType.FixedSizeList) {
      String element = "lake_e" + depth;
      String shaped = shape(element, field.getChildren().get(0), depth + 1);
      return shaped == null ? null : transform(input, element, shaped);
    }
    if (type instanceof ArrowType.Map) {
      // a map is a list of {key, value} structs: reshape the entries and rebuild it
      String entry = "lake_e" + depth;
      String shaped = shape(entry, field.getChildren().get(0), depth + 1);
      return shaped == null
          ? null
          : "map_from_entries(" + transform("map_entries(" + input + ")", entry, shaped) + ")";
    }
    return null;
  }

  private static String transform(String list, String element, String shaped) {
    return "list_transform(" + list + ", lambda " + element + ": " + shaped + ")";
  }

  /** A struct with every field named and reshaped, NULL where the struct is NULL; or null. */
  private static String struct(String input, List<Field> fields, int depth) {
    boolean changed = false;
    List<String> packed = new ArrayList<>();
    for (int i = 0; i < fields.size(); i++) {
      Field f = fields.get(i);
      String name = f.getName();
      changed |= name.isEmpty();
      String value = "struct_extract_at(" + input + ", " + (i + 1) + ")";
      String shaped = shape(value, f, depth + 1);
      changed |= shaped != null;
      packed.add(
          quote(name.isEmpty() ? "f" + (i + 1) : name)
              + " := "
              + (shaped == null ? value : shaped));
    }
    if (!changed) {
      return null;
    }
    return "CASE WHEN "
        + input
        + " IS NULL THEN NULL ELSE struct_pack("
        + String.join(", ", packed)
        + ") END";
  }

  private static String widened(int bitWidth) {
    return switch (bitWidth) {
      case 8 -> "SMALLINT";
      case 16 -> "INTEGER";
      case 32 -> "BIGINT";
      default -> "DECIMAL(20,0)";
    };
  }

  static String quote(String identifier) {
    return "\"" + identifier.replace("\"", "\"\"") + "\"";
  }
}
