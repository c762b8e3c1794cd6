package dev.lake.frontdoor;

import static java.util.Objects.requireNonNull;

import io.micrometer.core.instrument.DistributionSummary;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.time.Duration;
import org.apache.arrow.flight.FlightStatusCode;

/**
 * Where a finished RPC goes: one audit line, and the per-tenant meters — {@code lake.rpc} (timer by
 * rpc, outcome and tenant), {@code lake.egress.bytes} and {@code lake.egress.rows} (what DoGet
 * streamed, by tenant). Tenants are bounded by the principals file, so the tag stays small.
 */
final class CallObserver {
  private final AuditLog audit;
  private final MeterRegistry registry;

  CallObserver(AuditLog audit, MeterRegistry registry) {
    this.audit = requireNonNull(audit, "audit is null");
    this.registry = requireNonNull(registry, "registry is null");
  }

  /** Audit lines dropped and meters kept in memory: for in-process servers of tests and tools. */
  static CallObserver quiet() {
    return new CallObserver(new AuditLog(line -> {}), new SimpleMeterRegistry());
  }

  MeterRegistry registry() {
    return registry;
  }

  /** Meters first, then the audit line: whoever sees the line sees the call counted. */
  void completed(AuditRecord r) {
    Timer.builder("lake.rpc")
        .description("Flight RPCs by method, outcome and tenant")
        .tags("rpc", r.rpc(), "outcome", r.outcome(), "tenant", r.tenant())
        .publishPercentileHistogram()
        .register(registry)
        .record(Duration.ofMillis(r.durationMillis()));
    if (r.bytes() > 0 || r.rows() > 0) {
      DistributionSummary.builder("lake.egress.bytes")
          .description("Arrow bytes streamed to clients per call")
          .baseUnit("bytes")
          .tags("tenant", r.tenant())
          .register(registry)
          .record(r.bytes());
      registry.counter("lake.egress.rows", "tenant", r.tenant()).increment(r.rows());
    }
    audit.write(r);
  }

  /** The alarm-relevant class of a status: only faults of the server count as server errors. */
  static String outcome(FlightStatusCode code) {
    return switch (code) {
      case OK -> "ok";
      case CANCELLED -> "cancelled";
      case UNAVAILABLE, TIMED_OUT, RESOURCE_EXHAUSTED -> "unavailable";
      case INTERNAL, UNKNOWN, UNIMPLEMENTED -> "server_error";
      default -> "client_error";
    };
  }
}
