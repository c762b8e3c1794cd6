package dev.lake.frontdoor;

import static java.util.Objects.requireNonNull;

import com.fasterxml.jackson.core.JsonGenerator;
import dev.lake.core.Json;
import dev.lake.core.QueryStats;
import java.io.IOException;
import java.io.StringWriter;
import java.io.UncheckedIOException;
import java.time.Instant;
import java.util.Map;
import java.util.function.Consumer;

/**
 * The audit trail: one JSON object per line per RPC, written to its own sink (the process's
 * standard output in a deployment, where the container log driver ships each line) and not through
 * the application log, so every line parses as JSON — the front-door error alarm's metric filter
 * matches {@code "kind":"audit"} and {@code "outcome":"server_error"}. Fields are described in
 * docs/operations.md ("Audit trail"); absent fields mean the call ran no query.
 */
public final class AuditLog {
  private final Consumer<String> sink;

  /** The last second written, formatted: calls within one second share the date-time part. */
  private volatile Second second = new Second(Long.MIN_VALUE, "");

  private record Second(long epochSecond, String text) {}

  AuditLog(Consumer<String> sink) {
    this.sink = requireNonNull(sink, "sink is null");
  }

  /** Lines on standard output ({@link java.io.PrintStream#println} writes each line whole). */
  public static AuditLog stdout() {
    return new AuditLog(System.out::println);
  }

  /**
   * Writes {@code r} as one line. Streamed field by field (no intermediate tree: this runs once per
   * RPC); the field order is the documented one.
   */
  void write(AuditRecord r) {
    StringWriter out = new StringWriter(384);
    try (JsonGenerator g = Json.mapper().getFactory().createGenerator(out)) {
      g.writeStartObject();
      g.writeStringField("kind", "audit");
      g.writeStringField("time", iso(r.time()));
      g.writeStringField("tenant", r.tenant());
      g.writeStringField("principal", r.principal());
      g.writeStringField("rpc", r.rpc());
      g.writeStringField("call", r.callId());
      AuditRecord.Query q = r.query();
      if (q.queryId().isPresent()) {
        g.writeStringField("query", q.queryId().get());
      }
      if (q.jobId().isPresent()) {
        g.writeStringField("job", q.jobId().get());
      }
      if (!q.snapshots().isEmpty()) {
        g.writeObjectFieldStart("snapshots");
        for (Map.Entry<String, String> e : q.snapshots().entrySet()) {
          g.writeStringField(e.getKey(), e.getValue());
        }
        g.writeEndObject();
      }
      g.writeNumberField("rows", r.rows());
      g.writeNumberField("bytes", r.bytes());
      g.writeNumberField("durationMs", r.durationMillis());
      if (q.planning().isPresent()) {
        g.writeNumberField("planningMs", q.planning().get().toMillis());
      }
      if (q.firstBatch().isPresent()) {
        g.writeNumberField("firstBatchMs", q.firstBatch().get().toMillis());
      }
      if (q.download().isPresent()) {
        g.writeNumberField("downloadMs", q.download().get().toMillis());
      }
      if (q.stats().isPresent()) {
        QueryStats s = q.stats().get();
        g.writeObjectFieldStart("accounting");
        g.writeNumberField("scannedBytes", s.scannedBytes());
        g.writeNumberField("resultBytes", s.resultBytes());
        g.writeNumberField("memoryPeakBytes", s.memoryPeakBytes());
        g.writeNumberField("arrowPeakBytes", s.arrowPeakBytes());
        g.writeNumberField("engineMemoryBytes", s.engineMemoryBytes());
        g.writeNumberField("spillBytes", s.spillBytes());
        g.writeEndObject();
      }
      g.writeStringField("status", r.status());
      g.writeStringField("outcome", r.outcome());
      g.writeEndObject();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    sink.accept(out.toString());
  }

  /**
   * {@code time.toString()} (ISO-8601, UTC, the fraction in groups of three digits, none when
   * zero), with the part up to the second formatted once per second: the formatter was a quarter of
   * the line's cost, and every RPC writes a line.
   */
  String iso(Instant time) {
    Second s = second;
    if (s.epochSecond() != time.getEpochSecond()) {
      String whole = Instant.ofEpochSecond(time.getEpochSecond()).toString();
      s = new Second(time.getEpochSecond(), whole.substring(0, whole.length() - 1));
      second = s;
    }
    int nanos = time.getNano();
    if (nanos == 0) {
      return s.text() + "Z";
    }
    StringBuilder b = new StringBuilder(s.text().length() + 11).append(s.text()).append('.');
    if (nanos % 1_000_000 == 0) {
      appendPadded(b, nanos / 1_000_000, 3);
    } else if (nanos % 1_000 == 0) {
      appendPadded(b, nanos / 1_000, 6);
    } else {
      appendPadded(b, nanos, 9);
    }
    return b.append('Z').toString();
  }

  private static void appendPadded(StringBuilder b, int value, int digits) {
    String v = Integer.toString(value);
    b.append("0".repeat(digits - v.length())).append(v);
  }
}
