package dev.lake.client.cli;

import java.math.BigDecimal;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.HexFormat;
import java.util.concurrent.TimeUnit;
import org.apache.arrow.vector.BaseFixedWidthVector;
import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.BitVector;
import org.apache.arrow.vector.DateDayVector;
import org.apache.arrow.vector.DateMilliVector;
import org.apache.arrow.vector.Decimal256Vector;
import org.apache.arrow.vector.DecimalVector;
import org.apache.arrow.vector.Float2Vector;
import org.apache.arrow.vector.Float4Vector;
import org.apache.arrow.vector.Float8Vector;
import org.apache.arrow.vector.IntVector;
import org.apache.arrow.vector.LargeVarBinaryVector;
import org.apache.arrow.vector.SmallIntVector;
import org.apache.arrow.vector.TimeMicroVector;
import org.apache.arrow.vector.TimeMilliVector;
import org.apache.arrow.vector.TimeNanoVector;
import org.apache.arrow.vector.TimeSecVector;
import org.apache.arrow.vector.TimeStampVector;
import org.apache.arrow.vector.TinyIntVector;
import org.apache.arrow.vector.UInt1Vector;
import org.apache.arrow.vector.UInt2Vector;
import org.apache.arrow.vector.UInt4Vector;
import org.apache.arrow.vector.UInt8Vector;
import org.apache.arrow.vector.ValueVector;
import org.apache.arrow.vector.VarBinaryVector;
import org.apache.arrow.vector.types.pojo.ArrowType;

/**
 * Text and JSON-friendly values of Arrow cells, for the table, CSV and JSON outputs: decimals in
 * plain notation with their scale, dates and times in ISO form (timestamps without a time zone as
 * {@code 2024-01-31 12:00:00}, with one as an offset date-time in UTC), binary as hex, doubles in
 * Java's shortest round-trip form, unsigned integers as their exact unsigned value. Lists, structs
 * and maps print as JSON text ({@link JsonValues}).
 */
final class Values {
  private Values() {}

  /** A value's kind for JSON: numbers and booleans unquoted, everything else a string. */
  enum Kind {
    INTEGER,
    DECIMAL,
    FLOAT,
    BOOLEAN,
    TEXT
  }

  static Kind kind(ValueVector v) {
    if (v instanceof BigIntVector
        || v instanceof IntVector
        || v instanceof SmallIntVector
        || v instanceof TinyIntVector
        || v instanceof UInt1Vector
        || v instanceof UInt2Vector
        || v instanceof UInt4Vector
        || v instanceof UInt8Vector) {
      return Kind.INTEGER;
    }
    if (v instanceof DecimalVector || v instanceof Decimal256Vector) {
      return Kind.DECIMAL;
    }
    if (v instanceof Float8Vector || v instanceof Float4Vector || v instanceof Float2Vector) {
      return Kind.FLOAT;
    }
    if (v instanceof BitVector) {
      return Kind.BOOLEAN;
    }
    return Kind.TEXT;
  }

  /** The cell as text, or null for SQL NULL. */
  static String text(ValueVector v, int row) {
    if (v.isNull(row)) {
      return null;
    }
    if (JsonValues.nested(v)) {
      return JsonValues.text(v, row);
    }
    // Arrow's getObject reads unsigned vectors as signed Java types (UInt2 even as a char)
    if (v instanceof UInt1Vector u) {
      return u.getObjectNoOverflow(row).toString();
    }
    if (v instanceof UInt2Vector u) {
      return Integer.toString(u.get(row));
    }
    if (v instanceof UInt4Vector u) {
      return u.getObjectNoOverflow(row).toString();
    }
    if (v instanceof UInt8Vector u) {
      return u.getObjectNoOverflow(row).toString();
    }
    if (v instanceof DecimalVector d) {
      return plain(d.getObject(row));
    }
    if (v instanceof Decimal256Vector d) {
      return plain(d.getObject(row));
    }
    if (v instanceof DateDayVector d) {
      return LocalDate.ofEpochDay(d.get(row)).toString();
    }
    if (v instanceof DateMilliVector d) {
      return LocalDate.ofEpochDay(Math.floorDiv(d.get(row), 86_400_000L)).toString();
    }
    if (v instanceof TimeStampVector t) {
      return timestamp(t, row);
    }
    if (v instanceof TimeSecVector t) {
      return LocalTime.ofSecondOfDay(t.get(row)).toString();
    }
    if (v instanceof TimeMilliVector t) {
      return LocalTime.ofNanoOfDay(t.get(row) * 1_000_000L).toString();
    }
    if (v instanceof TimeMicroVector t) {
      return LocalTime.ofNanoOfDay(t.get(row) * 1_000L).toString();
    }
    if (v instanceof TimeNanoVector t) {
      return LocalTime.ofNanoOfDay(t.get(row)).toString();
    }
    if (v instanceof VarBinaryVector b) {
      return HexFormat.of().formatHex(b.get(row));
    }
    if (v instanceof LargeVarBinaryVector b) {
      return HexFormat.of().formatHex(b.get(row));
    }
    Object value = v.getObject(row);
    return value == null ? null : value.toString();
  }

  private static String plain(BigDecimal d) {
    return d.toPlainString();
  }

  private static String timestamp(TimeStampVector t, int row) {
    ArrowType.Timestamp type = (ArrowType.Timestamp) t.getField().getType();
    long raw = ((BaseFixedWidthVector) t).getDataBuffer().getLong((long) row * 8);
    TimeUnit unit =
        switch (type.getUnit()) {
          case SECOND -> TimeUnit.SECONDS;
          case MILLISECOND -> TimeUnit.MILLISECONDS;
          case MICROSECOND -> TimeUnit.MICROSECONDS;
          case NANOSECOND -> TimeUnit.NANOSECONDS;
        };
    long seconds = Math.floorDiv(raw, unit.convert(1, TimeUnit.SECONDS));
    long fraction = Math.floorMod(raw, unit.convert(1, TimeUnit.SECONDS));
    Instant instant = Instant.ofEpochSecond(seconds, TimeUnit.NANOSECONDS.convert(fraction, unit));
    if (type.getTimezone() == null || type.getTimezone().isEmpty()) {
      return LocalDateTime.ofInstant(instant, ZoneOffset.UTC)
          .format(DateTimeFormatter.ISO_LOCAL_DATE_TIME)
          .replace('T', ' ');
    }
    return instant.atZone(ZoneId.of("UTC")).toOffsetDateTime().toString();
  }
}
