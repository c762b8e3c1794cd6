package dev.lake.client;

import java.math.BigDecimal;
import java.math.RoundingMode;
import java.nio.charset.StandardCharsets;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.BitVector;
import org.apache.arrow.vector.DateDayVector;
import org.apache.arrow.vector.DecimalVector;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.Float8Vector;
import org.apache.arrow.vector.NullVector;
import org.apache.arrow.vector.TimeStampMicroVector;
import org.apache.arrow.vector.VarCharVector;
import org.apache.arrow.vector.VectorSchemaRoot;

/**
 * One row of positional query parameters as Arrow vectors, typed from the Java values: null,
 * Boolean, Integer/Long/Short/Byte, Float/Double, BigDecimal, String, LocalDate, LocalDateTime (the
 * value types lake binds).
 */
final class Parameters {
  private Parameters() {}

  /** A one-row root holding {@code values}; the caller closes it. */
  static VectorSchemaRoot root(List<Object> values, BufferAllocator allocator) {
    List<FieldVector> vectors = new ArrayList<>();
    try {
      for (int i = 0; i < values.size(); i++) {
        vectors.add(vector("p" + (i + 1), values.get(i), allocator));
      }
    } catch (RuntimeException e) {
      vectors.forEach(FieldVector::close);
      throw e;
    }
    VectorSchemaRoot root = new VectorSchemaRoot(vectors);
    root.setRowCount(1);
    return root;
  }

  private static FieldVector vector(String name, Object value, BufferAllocator allocator) {
    if (value == null) {
      NullVector v = new NullVector(name);
      v.setValueCount(1);
      return v;
    }
    if (value instanceof Boolean b) {
      BitVector v = new BitVector(name, allocator);
      v.setSafe(0, b ? 1 : 0);
      return done(v);
    }
    if (value instanceof Long
        || value instanceof Integer
        || value instanceof Short
        || value instanceof Byte) {
      BigIntVector v = new BigIntVector(name, allocator);
      v.setSafe(0, ((Number) value).longValue());
      return done(v);
    }
    if (value instanceof Double || value instanceof Float) {
      Float8Vector v = new Float8Vector(name, allocator);
      v.setSafe(0, ((Number) value).doubleValue());
      return done(v);
    }
    if (value instanceof BigDecimal d) {
      int scale = Math.max(0, d.scale());
      int precision = Math.max(scale + 1, d.precision());
      if (precision > 38) {
        throw new IllegalArgumentException("decimal parameter has more than 38 digits: " + d);
      }
      DecimalVector v = new DecimalVector(name, allocator, precision, scale);
      v.setSafe(0, d.setScale(scale, RoundingMode.UNNECESSARY));
      return done(v);
    }
    if (value instanceof String s) {
      VarCharVector v = new VarCharVector(name, allocator);
      v.setSafe(0, s.getBytes(StandardCharsets.UTF_8));
      return done(v);
    }
    if (value instanceof LocalDate d) {
      DateDayVector v = new DateDayVector(name, allocator);
      v.setSafe(0, Math.toIntExact(d.toEpochDay()));
      return done(v);
    }
    if (value instanceof LocalDateTime t) {
      TimeStampMicroVector v = new TimeStampMicroVector(name, allocator);
      v.setSafe(0, ChronoUnit.MICROS.between(LocalDateTime.ofEpochSecond(0, 0, ZoneOffset.UTC), t));
      return done(v);
    }
    throw new IllegalArgumentException(
        "unsupported parameter type "
            + value.getClass().getName()
            + "; use null, Boolean, Long, Double, BigDecimal, String, LocalDate or"
            + " LocalDateTime");
  }

  private static FieldVector done(FieldVector v) {
    v.setValueCount(1);
    return v;
  }
}
