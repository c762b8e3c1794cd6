package dev.lake.frontdoor;

import com.google.protobuf.ByteString;
import dev.lake.core.ErrorCode;
import dev.lake.core.LakeException;
import java.math.BigDecimal;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.apache.arrow.flight.FlightProducer;
import org.apache.arrow.flight.FlightStream;
import org.apache.arrow.flight.PutResult;
import org.apache.arrow.flight.sql.impl.FlightSql.DoPutPreparedStatementResult;
import org.apache.arrow.memory.ArrowBuf;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.BaseIntVector;
import org.apache.arrow.vector.BitVector;
import org.apache.arrow.vector.DateDayVector;
import org.apache.arrow.vector.DateMilliVector;
import org.apache.arrow.vector.Decimal256Vector;
import org.apache.arrow.vector.DecimalVector;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.Float2Vector;
import org.apache.arrow.vector.Float4Vector;
import org.apache.arrow.vector.Float8Vector;
import org.apache.arrow.vector.LargeVarCharVector;
import org.apache.arrow.vector.NullVector;
import org.apache.arrow.vector.TimeStampVector;
import org.apache.arrow.vector.VarCharVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.types.pojo.ArrowType;

/**
 * Reads the parameter values a client binds to a prepared statement through DoPut. Exactly one row
 * is accepted (lake runs one execution per handle); each column becomes one of the value types the
 * engine binds (null, Boolean, Long, Double, BigDecimal, String, LocalDate, LocalDateTime).
 */
final class ParameterBinder {
  /** Upper bound on bound parameters per statement. */
  static final int MAX_PARAMETERS = 1024;

  private ParameterBinder() {}

  /** Drains {@code stream} and returns the values of its single row. */
  static List<Object> readOneRow(FlightStream stream) {
    List<Object> values = null;
    int rows = 0;
    while (stream.next()) {
      VectorSchemaRoot root = stream.getRoot();
      for (int r = 0; r < root.getRowCount(); r++) {
        rows++;
        if (rows > 1) {
          continue; // keep draining; reported below
        }
        if (root.getFieldVectors().size() > MAX_PARAMETERS) {
          throw new LakeException(
              ErrorCode.INVALID_ARGUMENT,
              "At most " + MAX_PARAMETERS + " parameters can be bound to a statement");
        }
        values = new ArrayList<>();
        for (FieldVector v : root.getFieldVectors()) {
          values.add(value(v, r));
        }
      }
    }
    if (rows != 1) {
      throw new LakeException(
          ErrorCode.INVALID_ARGUMENT,
          "Bind exactly one row of parameters per execution, got " + rows);
    }
    return Collections.unmodifiableList(values);
  }

  /** The value at {@code row} of {@code v} as an engine parameter. */
  /** The DoPut reply of a binding: a {@code DoPutPreparedStatementResult} naming the new handle. */
  static void sendHandle(
      byte[] handle, BufferAllocator allocator, FlightProducer.StreamListener<PutResult> ack) {
    byte[] reply =
        DoPutPreparedStatementResult.newBuilder()
            .setPreparedStatementHandle(ByteString.copyFrom(handle))
            .build()
            .toByteArray();
    try (ArrowBuf buffer = allocator.buffer(reply.length)) {
      buffer.writeBytes(reply);
      ack.onNext(PutResult.metadata(buffer));
    }
  }

  static Object value(FieldVector v, int row) {
    if (v instanceof NullVector || v.isNull(row)) {
      return null;
    }
    if (v instanceof BitVector b) {
      return b.get(row) != 0;
    }
    if (v instanceof BaseIntVector i && v.getField().getType() instanceof ArrowType.Int) {
      return i.getValueAsLong(row);
    }
    if (v instanceof Float8Vector f) {
      return f.get(row);
    }
    if (v instanceof Float4Vector f) {
      return (double) f.get(row);
    }
    if (v instanceof Float2Vector f) {
      return (double) f.getValueAsFloat(row);
    }
    if (v instanceof DecimalVector d) {
      return d.getObject(row);
    }
    if (v instanceof Decimal256Vector d) {
      BigDecimal value = d.getObject(row);
      return value;
    }
    if (v instanceof VarCharVector s) {
      return s.getObject(row).toString();
    }
    if (v instanceof LargeVarCharVector s) {
      return s.getObject(row).toString();
    }
    if (v instanceof DateDayVector d) {
      return LocalDate.ofEpochDay(d.get(row));
    }
    if (v instanceof DateMilliVector d) {
      return LocalDate.ofEpochDay(Math.floorDiv(d.get(row), TimeUnit.DAYS.toMillis(1)));
    }
    if (v instanceof TimeStampVector t) {
      return timestamp(t, row);
    }
    throw new LakeException(
        ErrorCode.UNSUPPORTED,
        "Parameters of Arrow type " + v.getField().getType() + " are not supported");
  }

  /** A timestamp as local date-time; zoned timestamps are taken in UTC. */
  private static LocalDateTime timestamp(TimeStampVector t, int row) {
    ArrowType.Timestamp type = (ArrowType.Timestamp) t.getField().getType();
    long raw = t.get(row);
    Instant instant =
        switch (type.getUnit()) {
          case SECOND -> Instant.ofEpochSecond(raw);
          case MILLISECOND -> Instant.ofEpochMilli(raw);
          case MICROSECOND ->
              Instant.ofEpochSecond(
                  Math.floorDiv(raw, 1_000_000L), Math.floorMod(raw, 1_000_000L) * 1000L);
          case NANOSECOND ->
              Instant.ofEpochSecond(
                  Math.floorDiv(raw, 1_000_000_000L), Math.floorMod(raw, 1_000_000_000L));
        };
    return LocalDateTime.ofInstant(instant, ZoneOffset.UTC);
  }
}
