package dev.lake.iceberg;

import java.util.HashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import org.apache.iceberg.types.Type;
import org.apache.iceberg.types.Types;
import org.apache.parquet.schema.LogicalTypeAnnotation;
import org.apache.parquet.schema.MessageType;
import org.apache.parquet.schema.PrimitiveType;
import org.apache.parquet.schema.PrimitiveType.PrimitiveTypeName;

/**
 * A Parquet file's top-level columns that carry a field id and whose physical and logical type
 * DuckDB reads as exactly the Iceberg type given here (by field id), plus how often each name
 * occurs in any case among all top-level columns (DuckDB matches names case-insensitively).
 */
record FileColumns(Map<Integer, Types.NestedField> exact, Map<String, Integer> nameCounts) {
  FileColumns {
    exact = Map.copyOf(exact);
    nameCounts = Map.copyOf(nameCounts);
  }

  static final FileColumns NONE = new FileColumns(Map.of(), Map.of());

  static FileColumns of(MessageType file) {
    Map<Integer, Types.NestedField> exact = new HashMap<>();
    Map<String, Integer> counts = new HashMap<>();
    for (org.apache.parquet.schema.Type t : file.getFields()) {
      counts.merge(t.getName().toLowerCase(Locale.ROOT), 1, Integer::sum);
      if (t.getId() == null
          || !t.isPrimitive()
          || t.isRepetition(org.apache.parquet.schema.Type.Repetition.REPEATED)) {
        continue;
      }
      exactType(t.asPrimitiveType())
          .ifPresent(
              type ->
                  exact.put(
                      t.getId().intValue(),
                      Types.NestedField.optional(t.getId().intValue(), t.getName(), type)));
    }
    return new FileColumns(exact, counts);
  }

  /**
   * The Iceberg type DuckDB's own reading of this column matches exactly, for the plain cases only:
   * timestamps, times, unsigned or narrow integers, binary and everything else are read through the
   * field-id map, which casts to the pinned type.
   */
  private static Optional<Type> exactType(PrimitiveType p) {
    LogicalTypeAnnotation logical = p.getLogicalTypeAnnotation();
    if (logical instanceof LogicalTypeAnnotation.DecimalLogicalTypeAnnotation d) {
      return d.getPrecision() <= 38
          ? Optional.of(Types.DecimalType.of(d.getPrecision(), d.getScale()))
          : Optional.empty();
    }
    boolean plainInt =
        logical == null
            || (logical instanceof LogicalTypeAnnotation.IntLogicalTypeAnnotation i
                && i.isSigned()
                && i.getBitWidth()
                    == (p.getPrimitiveTypeName() == PrimitiveTypeName.INT32 ? 32 : 64));
    switch (p.getPrimitiveTypeName()) {
      case BOOLEAN:
        return logical == null ? Optional.of(Types.BooleanType.get()) : Optional.empty();
      case INT32:
        if (logical instanceof LogicalTypeAnnotation.DateLogicalTypeAnnotation) {
          return Optional.of(Types.DateType.get());
        }
        return plainInt ? Optional.of(Types.IntegerType.get()) : Optional.empty();
      case INT64:
        return plainInt ? Optional.of(Types.LongType.get()) : Optional.empty();
      case FLOAT:
        return logical == null ? Optional.of(Types.FloatType.get()) : Optional.empty();
      case DOUBLE:
        return logical == null ? Optional.of(Types.DoubleType.get()) : Optional.empty();
      case BINARY:
        return logical instanceof LogicalTypeAnnotation.StringLogicalTypeAnnotation
            ? Optional.of(Types.StringType.get())
            : Optional.empty();
      default:
        return Optional.empty();
    }
  }
}
