package dev.lake.iceberg;

import static java.util.Objects.requireNonNull;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
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
 * A Parquet file's own top-level columns, from its footer: every name in file order, and by field
 * id those columns whose physical and logical type DuckDB reads as exactly the Iceberg type given
 * here. Decides whether a file can be read by column name instead of through the field-id map
 * ({@link ParquetScanSql#readsByName}); two files with equal {@code FileColumns} have the same
 * names at the same positions, so one {@code read_parquet} reads both alike.
 */
record FileColumns(Map<Integer, Types.NestedField> exact, List<String> names) {
  FileColumns {
    exact = Map.copyOf(requireNonNull(exact, "exact is null"));
    names = List.copyOf(requireNonNull(names, "names is null"));
  }

  /** Nothing known: every column is read through the field-id map. */
  static final FileColumns NONE = new FileColumns(Map.of(), List.of());

  static FileColumns of(MessageType file) {
    Map<Integer, Types.NestedField> exact = new HashMap<>();
    List<String> names = new ArrayList<>();
    for (org.apache.parquet.schema.Type t : file.getFields()) {
      names.add(t.getName());
      if (t.getId() == null
          || !t.isPrimitive()
          || t.isRepetition(org.apache.parquet.schema.Type.Repetition.REPEATED)) {
        continue;
      }
      int id = t.getId().intValue();
      exactType(t.asPrimitiveType())
          .ifPresent(type -> exact.put(id, Types.NestedField.optional(id, t.getName(), type)));
    }
    return new FileColumns(exact, names);
  }

  /** How many top-level columns are named {@code name} in any case (DuckDB ignores case). */
  int occurrences(String name) {
    int n = 0;
    for (String own : names) {
      if (own.toLowerCase(Locale.ROOT).equals(name.toLowerCase(Locale.ROOT))) {
        n++;
      }
    }
    return n;
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
