package dev.lake.frontdoor;

import static java.util.Objects.requireNonNull;

import com.fasterxml.jackson.core.JsonGenerator;
import dev.lake.core.Json;
import dev.lake.core.QueryStats;
import java.io.IOException;
import java.io.StringWriter;
import java.io.UncheckedIOException;
import java.util.Map;
import java.util.function.Consumer;

/**
 * The audit trail: one JSON object per line per RPC, written to its own sink (the process's
 * standard output in a deployment, where the container log driver ships each line) and not through
 * the application log, so every line parses as JSON — the front-door error alarm's metric filter
 * matches {@code "kind":"audit"} and {@code "outcome":"server_error"}. Fields are described in
 * docs/operations.md ("Audit trail"); absent fields mean the call ran no query.
 */
final class AuditLog {
  private final Consumer<String> sink;

  AuditLog(Consumer<String> sink) {
    this.sink = requireNonNull(sink, "sink is null");
  }

  /** Lines on standard output ({@link java.io.PrintStream#println} writes each line whole). */
  static AuditLog stdout() {
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
      g.writeStringField("time", r.time().toString());
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
}
