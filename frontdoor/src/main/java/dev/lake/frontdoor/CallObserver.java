package dev.lake.frontdoor;

import static java.util.Objects.requireNonNull;

import dev.lake.core.QueryStats;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.DistributionSummary;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import org.apache.arrow.flight.FlightStatusCode;

/**
 * Where a finished RPC goes: the meters, then one audit line. Meters (see docs/operations.md,
 * "Metrics"):
 *
 * <ul>
 *   <li>{@code lake.rpc} — timer by rpc, outcome and tenant;
 *   <li>{@code lake.egress.bytes}, {@code lake.egress.rows} — what DoGet streamed, by tenant;
 *   <li>{@code lake.query.planning}, {@code lake.query.execution} (DoGet start to first batch),
 *       {@code lake.query.download} (DoGet start to last batch) — latency histograms, no tenant tag
 *       (an operator's SLO, and histogram buckets times tenants would be many series);
 *   <li>{@code lake.query.scanned.bytes}, {@code lake.query.result.bytes}, {@code
 *       lake.query.memory.peak.bytes}, {@code lake.query.spill.bytes} — per-query accounting by
 *       tenant (count, sum and max; no buckets).
 * </ul>
 *
 * <p>The tenant tag is bounded: the first {@link #MAX_TENANT_TAGS} tenants seen keep their name,
 * later ones are tagged {@value #OTHER_TENANT} (the audit line always names the tenant), so a large
 * principals file cannot multiply series without bound.
 */
public final class CallObserver {
  /** Distinct tenant tag values at most; tenants beyond share {@value #OTHER_TENANT}. */
  static final int MAX_TENANT_TAGS = 200;

  static final String OTHER_TENANT = "_other";

  private final AuditLog audit;
  private final MeterRegistry registry;
  private final Set<String> tenants = ConcurrentHashMap.newKeySet();

  // Meter handles, registered once and then looked up by plain keys: registering (building and
  // hashing a tagged id) on every call cost more than the recording. Every key set is bounded: rpc
  // names and outcomes are fixed sets, tenant tags are bounded by MAX_TENANT_TAGS.
  private final Map<RpcKey, Timer> rpcTimers = new ConcurrentHashMap<>();
  private final Map<String, TenantMeters> tenantMeters = new ConcurrentHashMap<>();
  private final Timer planning;
  private final Timer execution;
  private final Timer download;

  private record RpcKey(String rpc, String outcome, String tenant) {}

  /** The per-tenant meters of egress and query accounting. */
  private record TenantMeters(
      DistributionSummary egressBytes,
      Counter egressRows,
      DistributionSummary scanned,
      DistributionSummary result,
      DistributionSummary memoryPeak,
      DistributionSummary spill) {}

  public CallObserver(AuditLog audit, MeterRegistry registry) {
    this.audit = requireNonNull(audit, "audit is null");
    this.registry = requireNonNull(registry, "registry is null");
    this.planning = latency("lake.query.planning", "Admission to planned");
    this.execution = latency("lake.query.execution", "DoGet start to first batch");
    this.download = latency("lake.query.download", "DoGet start to last batch");
  }

  /** Audit lines dropped and meters kept in memory: for in-process servers of tests and tools. */
  public static CallObserver quiet() {
    return new CallObserver(new AuditLog(line -> {}), new SimpleMeterRegistry());
  }

  MeterRegistry registry() {
    return registry;
  }

  /** Meters first, then the audit line: whoever sees the line sees the call counted. */
  void completed(AuditRecord r) {
    String tenant = tenantTag(r.tenant());
    rpcTimers
        .computeIfAbsent(new RpcKey(r.rpc(), r.outcome(), tenant), this::rpcTimer)
        .record(r.durationMillis(), TimeUnit.MILLISECONDS);
    AuditRecord.Query q = r.query();
    if (r.bytes() > 0 || r.rows() > 0 || q.stats().isPresent()) {
      TenantMeters meters = tenantMeters.computeIfAbsent(tenant, this::tenantMeters);
      if (r.bytes() > 0 || r.rows() > 0) {
        meters.egressBytes().record(r.bytes());
        meters.egressRows().increment(r.rows());
      }
      q.stats().ifPresent(s -> account(meters, s));
    }
    q.planning().ifPresent(planning::record);
    q.firstBatch().ifPresent(execution::record);
    q.download().ifPresent(download::record);
    audit.write(r);
  }

  private Timer rpcTimer(RpcKey key) {
    return Timer.builder("lake.rpc")
        .description("Flight RPCs by method, outcome and tenant")
        .tags("rpc", key.rpc(), "outcome", key.outcome(), "tenant", key.tenant())
        .publishPercentileHistogram()
        .register(registry);
  }

  private TenantMeters tenantMeters(String tenant) {
    return new TenantMeters(
        bytes("lake.egress.bytes", "Arrow bytes streamed to clients per call", tenant),
        registry.counter("lake.egress.rows", "tenant", tenant),
        bytes("lake.query.scanned.bytes", "Arrow bytes read from tables", tenant),
        bytes("lake.query.result.bytes", "Arrow bytes the engine produced", tenant),
        bytes("lake.query.memory.peak.bytes", "Arrow peak plus sampled engine memory", tenant),
        bytes("lake.query.spill.bytes", "Sampled engine spill files", tenant));
  }

  private static void account(TenantMeters meters, QueryStats s) {
    meters.scanned().record(s.scannedBytes());
    meters.result().record(s.resultBytes());
    meters.memoryPeak().record(s.memoryPeakBytes());
    meters.spill().record(s.spillBytes());
  }

  private DistributionSummary bytes(String name, String description, String tenant) {
    return DistributionSummary.builder(name)
        .description(description)
        .baseUnit("bytes")
        .tags("tenant", tenant)
        .register(registry);
  }

  private Timer latency(String name, String description) {
    return Timer.builder(name)
        .description(description)
        .publishPercentileHistogram()
        .register(registry);
  }

  /** {@code tenant}, or {@value #OTHER_TENANT} once {@link #MAX_TENANT_TAGS} others were seen. */
  String tenantTag(String tenant) {
    if (tenants.contains(tenant)) {
      return tenant;
    }
    if (tenants.size() < MAX_TENANT_TAGS) {
      tenants.add(tenant); // a race may admit a few more than the bound; it stays bounded
      return tenant;
    }
    return OTHER_TENANT;
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
