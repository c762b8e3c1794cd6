package dev.lake.frontdoor;

import static java.util.Objects.requireNonNull;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.lake.core.Json;
import java.io.UncheckedIOException;
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

  void write(AuditRecord r) {
    ObjectNode line = Json.mapper().createObjectNode();
    line.put("kind", "audit");
    line.put("time", r.time().toString());
    line.put("tenant", r.tenant());
    line.put("principal", r.principal());
    line.put("rpc", r.rpc());
    line.put("call", r.callId());
    AuditRecord.Query q = r.query();
    q.queryId().ifPresent(id -> line.put("query", id));
    q.jobId().ifPresent(id -> line.put("job", id));
    if (!q.snapshots().isEmpty()) {
      q.snapshots().forEach(line.putObject("snapshots")::put);
    }
    line.put("rows", r.rows());
    line.put("bytes", r.bytes());
    line.put("durationMs", r.durationMillis());
    q.planning().ifPresent(d -> line.put("planningMs", d.toMillis()));
    q.firstBatch().ifPresent(d -> line.put("firstBatchMs", d.toMillis()));
    q.download().ifPresent(d -> line.put("downloadMs", d.toMillis()));
    q.stats()
        .ifPresent(
            s ->
                line.putObject("accounting")
                    .put("scannedBytes", s.scannedBytes())
                    .put("resultBytes", s.resultBytes())
                    .put("memoryPeakBytes", s.memoryPeakBytes())
                    .put("arrowPeakBytes", s.arrowPeakBytes())
                    .put("engineMemoryBytes", s.engineMemoryBytes())
                    .put("spillBytes", s.spillBytes()));
    line.put("status", r.status());
    line.put("outcome", r.outcome());
    try {
      sink.accept(Json.mapper().writeValueAsString(line));
    } catch (JsonProcessingException e) {
      throw new UncheckedIOException(e);
    }
  }
}
