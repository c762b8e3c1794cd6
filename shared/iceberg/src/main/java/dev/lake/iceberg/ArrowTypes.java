package dev.lake.iceberg;

import dev.lake.core.ErrorCode;
import dev.lake.core.LakeException;
import java.math.BigDecimal;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.time.OffsetDateTime;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.BitVector;
import org.apache.arrow.vector.DateDayVector;
import org.apache.arrow.vector.DecimalVector;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.FixedSizeBinaryVector;
import org.apache.arrow.vector.Float4Vector;
import org.apache.arrow.vector.Float8Vector;
import org.apache.arrow.vector.IntVector;
import org.apache.arrow.vector.TimeMicroVector;
import org.apache.arrow.vector.TimeStampMicroTZVector;
import org.apache.arrow.vector.TimeStampMicroVector;
import org.apache.arrow.vector.TimeStampNanoTZVector;
import org.apache.arrow.vector.TimeStampNanoVector;
import org.apache.arrow.vector.VarBinaryVector;
import org.apache.arrow.vector.VarCharVector;
import org.apache.arrow.vector.complex.ListVector;
import org.apache.arrow.vector.complex.MapVector;
import org.apache.arrow.vector.complex.StructVector;
import org.apache.arrow.vector.types.DateUnit;
import org.apache.arrow.vector.types.FloatingPointPrecision;
import org.apache.arrow.vector.types.TimeUnit;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.FieldType;
import org.apache.arrow.vector.types.pojo.Schema;
import org.apache.iceberg.StructLike;
import org.apache.iceberg.types.Type;
import org.apache.iceberg.types.Types;
import org.apache.iceberg.util.DateTimeUtil;

/**
 * Iceberg types to Arrow, and writers of Iceberg generic values ({@code Record} fields) into Arrow
 * vectors. uuid becomes its canonical 36-character string (DuckDB has no Arrow uuid import);
 * timestamptz is UTC. Types lake cannot represent faithfully (variant, geometry, geography,
 * unknown) fail closed with {@link ErrorCode#UNSUPPORTED} naming the column and type.
 */
final class ArrowTypes {
  private ArrowTypes() {}

  /** Writes one value (possibly null) at {@code index} of {@code vector}. */
  interface ValueWriter {
    void write(FieldVector vector, int index, Object value);
  }

  static Schema toArrow(org.apache.iceberg.Schema schema) {
    List<Field> fields = new ArrayList<>();
    for (Types.NestedField f : schema.columns()) {
      fields.add(field(f.name(), f.isOptional(), f.type(), f.name()));
    }
    return new Schema(fields);
  }

  static List<ValueWriter> writers(org.apache.iceberg.Schema schema) {
    List<ValueWriter> out = new ArrayList<>();
    for (Types.NestedField f : schema.columns()) {
      out.add(writer(f.type()));
    }
    return out;
  }

  private static Field field(String name, boolean nullable, Type type, String column) {
    List<Field> children = new ArrayList<>();
    ArrowType arrow;
    switch (type.typeId()) {
      case BOOLEAN -> arrow = ArrowType.Bool.INSTANCE;
      case INTEGER -> arrow = new ArrowType.Int(32, true);
      case LONG -> arrow = new ArrowType.Int(64, true);
      case FLOAT -> arrow = new ArrowType.FloatingPoint(FloatingPointPrecision.SINGLE);
      case DOUBLE -> arrow = new ArrowType.FloatingPoint(FloatingPointPrecision.DOUBLE);
      case DECIMAL -> {
        Types.DecimalType d = (Types.DecimalType) type;
        arrow = new ArrowType.Decimal(d.precision(), d.scale(), 128);
      }
      case DATE -> arrow = new ArrowType.Date(DateUnit.DAY);
      case TIME -> arrow = new ArrowType.Time(TimeUnit.MICROSECOND, 64);
      case TIMESTAMP ->
          arrow =
              new ArrowType.Timestamp(
                  TimeUnit.MICROSECOND,
                  ((Types.TimestampType) type).shouldAdjustToUTC() ? "UTC" : null);
      case TIMESTAMP_NANO ->
          arrow =
              new ArrowType.Timestamp(
                  TimeUnit.NANOSECOND,
                  ((Types.TimestampNanoType) type).shouldAdjustToUTC() ? "UTC" : null);
      case STRING, UUID -> arrow = ArrowType.Utf8.INSTANCE;
      case FIXED -> arrow = new ArrowType.FixedSizeBinary(((Types.FixedType) type).length());
      case BINARY -> arrow = ArrowType.Binary.INSTANCE;
      case STRUCT -> {
        arrow = ArrowType.Struct.INSTANCE;
        for (Types.NestedField c : type.asStructType().fields()) {
          children.add(field(c.name(), c.isOptional(), c.type(), column));
        }
      }
      case LIST -> {
        arrow = ArrowType.List.INSTANCE;
        Types.ListType l = type.asListType();
        children.add(field("element", l.isElementOptional(), l.elementType(), column));
      }
      case MAP -> {
        arrow = new ArrowType.Map(false);
        Types.MapType m = type.asMapType();
        Field key = field("key", false, m.keyType(), column);
        Field value = field("value", m.isValueOptional(), m.valueType(), column);
        children.add(
            new Field(
                "entries", FieldType.notNullable(ArrowType.Struct.INSTANCE), List.of(key, value)));
      }
      default -> throw unsupported(column, type);
    }
    return new Field(name, new FieldType(nullable, arrow, null), children);
  }

  static LakeException unsupported(String column, Type type) {
    return new LakeException(
        ErrorCode.UNSUPPORTED,
        "Iceberg type " + type + " (column " + column + ") is not supported by lake");
  }

  @SuppressWarnings("unchecked")
  private static ValueWriter writer(Type type) {
    ValueWriter w =
        switch (type.typeId()) {
          case BOOLEAN -> (v, i, o) -> ((BitVector) v).setSafe(i, (Boolean) o ? 1 : 0);
          case INTEGER -> (v, i, o) -> ((IntVector) v).setSafe(i, (Integer) o);
          case LONG -> (v, i, o) -> ((BigIntVector) v).setSafe(i, (Long) o);
          case FLOAT -> (v, i, o) -> ((Float4Vector) v).setSafe(i, (Float) o);
          case DOUBLE -> (v, i, o) -> ((Float8Vector) v).setSafe(i, (Double) o);
          case DECIMAL -> (v, i, o) -> ((DecimalVector) v).setSafe(i, (BigDecimal) o);
          case DATE ->
              (v, i, o) -> ((DateDayVector) v).setSafe(i, (int) ((LocalDate) o).toEpochDay());
          case TIME ->
              (v, i, o) ->
                  ((TimeMicroVector) v).setSafe(i, DateTimeUtil.microsFromTime((LocalTime) o));
          case TIMESTAMP ->
              ((Types.TimestampType) type).shouldAdjustToUTC()
                  ? (v, i, o) ->
                      ((TimeStampMicroTZVector) v)
                          .setSafe(i, DateTimeUtil.microsFromTimestamptz((OffsetDateTime) o))
                  : (v, i, o) ->
                      ((TimeStampMicroVector) v)
                          .setSafe(i, DateTimeUtil.microsFromTimestamp((LocalDateTime) o));
          case TIMESTAMP_NANO ->
              ((Types.TimestampNanoType) type).shouldAdjustToUTC()
                  ? (v, i, o) ->
                      ((TimeStampNanoTZVector) v)
                          .setSafe(i, DateTimeUtil.nanosFromTimestamptz((OffsetDateTime) o))
                  : (v, i, o) ->
                      ((TimeStampNanoVector) v)
                          .setSafe(i, DateTimeUtil.nanosFromTimestamp((LocalDateTime) o));
          case STRING, UUID ->
              (v, i, o) ->
                  ((VarCharVector) v).setSafe(i, o.toString().getBytes(StandardCharsets.UTF_8));
          case FIXED -> (v, i, o) -> ((FixedSizeBinaryVector) v).setSafe(i, bytes(o));
          case BINARY -> (v, i, o) -> ((VarBinaryVector) v).setSafe(i, bytes(o));
          case STRUCT -> structWriter(type.asStructType());
          case LIST -> {
            ValueWriter element = writer(type.asListType().elementType());
            yield (v, i, o) -> {
              ListVector list = (ListVector) v;
              List<Object> values = (List<Object>) o;
              int start = list.startNewValue(i);
              for (int j = 0; j < values.size(); j++) {
                element.write(list.getDataVector(), start + j, values.get(j));
              }
              list.endValue(i, values.size());
            };
          }
          case MAP -> {
            ValueWriter key = writer(type.asMapType().keyType());
            ValueWriter value = writer(type.asMapType().valueType());
            yield (v, i, o) -> {
              MapVector map = (MapVector) v;
              StructVector entries = (StructVector) map.getDataVector();
              int start = map.startNewValue(i);
              int j = 0;
              for (Map.Entry<Object, Object> e : ((Map<Object, Object>) o).entrySet()) {
                entries.setIndexDefined(start + j);
                key.write((FieldVector) entries.getChildByOrdinal(0), start + j, e.getKey());
                value.write((FieldVector) entries.getChildByOrdinal(1), start + j, e.getValue());
                j++;
              }
              map.endValue(i, j);
            };
          }
          default -> throw unsupported("?", type);
        };
    return (v, i, o) -> {
      if (o == null) {
        setNull(v, i);
      } else {
        w.write(v, i, o);
      }
    };
  }

  private static ValueWriter structWriter(Types.StructType struct) {
    List<ValueWriter> children = new ArrayList<>();
    for (Types.NestedField f : struct.fields()) {
      children.add(writer(f.type()));
    }
    return (v, i, o) -> {
      StructVector sv = (StructVector) v;
      StructLike row = (StructLike) o;
      sv.setIndexDefined(i);
      for (int c = 0; c < children.size(); c++) {
        children.get(c).write((FieldVector) sv.getChildByOrdinal(c), i, row.get(c, Object.class));
      }
    };
  }

  private static void setNull(FieldVector v, int index) {
    if (v instanceof StructVector s) {
      s.setNull(index);
    } else if (v instanceof ListVector l) {
      l.setNull(index);
    } else {
      // Fixed and variable width vectors: grow if needed, then clear the validity bit.
      while (index >= v.getValueCapacity()) {
        v.reAlloc();
      }
      v.setNull(index);
    }
  }

  private static byte[] bytes(Object o) {
    if (o instanceof byte[] b) {
      return b;
    }
    ByteBuffer bb = ((ByteBuffer) o).duplicate();
    byte[] out = new byte[bb.remaining()];
    bb.get(out);
    return out;
  }
}
