package dev.lake.lambda;

import static java.util.Objects.requireNonNull;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.lake.core.Json;
import dev.lake.core.QueryStats;
import dev.lake.durable.AttemptReport;
import java.io.UncheckedIOException;
import java.time.Instant;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Consumer;

/**
 * The worker's metrics as CloudWatch embedded metric format: one JSON line per delivery on standard
 * output, which Lambda ships to CloudWatch Logs, where the {@code _aws} block turns the named
 * fields into metrics (namespace {@value #NAMESPACE}) without an API call on the job's path.
 * CloudWatch keeps every value's distribution, so the dashboard draws p50/p99 of each phase.
 *
 * <ul>
 *   <li>Timings, dimension {@code Service=worker}, milliseconds: {@code QueueWaitMillis} (SQS sent
 *       to processing), {@code ProcessingMillis} (the whole delivery) and, when the delivery ran an
 *       attempt, {@code PlanningMillis}, {@code ExecutionMillis} and {@code UploadMillis} (see
 *       {@link AttemptReport}).
 *   <li>Accounting of an attempt, dimensions {@code Service} and {@code Service,Tenant}, bytes:
 *       {@code ScannedBytes}, {@code ResultBytes}, {@code MemoryPeakBytes}, {@code SpillBytes}, and
 *       {@code ResultRows} (count).
 * </ul>
 *
 * <p>The line doubles as the worker's audit record: {@code job}, {@code tenant}, {@code outcome}
 * and the {@code snapshots} read are plain properties (searchable, not dimensions). The tenant
 * dimension is bounded per container: the first {@link #MAX_TENANT_DIMENSIONS} tenants keep their
 * name, later ones share {@value #OTHER_TENANT}.
 */
final class EmfMetrics {
  static final String NAMESPACE = "lake";
  static final int MAX_TENANT_DIMENSIONS = 200;
  static final String OTHER_TENANT = "_other";

  private final Consumer<String> sink;
  private final Set<String> tenants = ConcurrentHashMap.newKeySet();

  EmfMetrics(Consumer<String> sink) {
    this.sink = requireNonNull(sink, "sink is null");
  }

  static EmfMetrics stdout() {
    return new EmfMetrics(System.out::println);
  }

  /**
   * One delivery's line: {@code timings} (metric name → milliseconds) and, when the delivery ran an
   * attempt, its report.
   */
  void job(
      Instant at,
      String job,
      String outcome,
      Map<String, Long> timings,
      Optional<AttemptReport> attempt) {
    ObjectNode line = Json.mapper().createObjectNode();
    ObjectNode aws = line.putObject("_aws");
    aws.put("Timestamp", at.toEpochMilli());
    ArrayNode directives = aws.putArray("CloudWatchMetrics");
    ArrayNode timed = directive(directives, false);
    line.put("Service", "worker");
    timings.forEach((name, millis) -> metric(line, timed, name, "Milliseconds", millis));
    attempt.ifPresent(
        r -> {
          metric(line, timed, "PlanningMillis", "Milliseconds", r.planning().toMillis());
          metric(line, timed, "ExecutionMillis", "Milliseconds", r.execution().toMillis());
          metric(line, timed, "UploadMillis", "Milliseconds", r.upload().toMillis());
          ArrayNode counted = directive(directives, true);
          QueryStats s = r.stats();
          metric(line, counted, "ScannedBytes", "Bytes", s.scannedBytes());
          metric(line, counted, "ResultBytes", "Bytes", s.resultBytes());
          metric(line, counted, "MemoryPeakBytes", "Bytes", s.memoryPeakBytes());
          metric(line, counted, "SpillBytes", "Bytes", s.spillBytes());
          metric(line, counted, "ResultRows", "Count", r.rows());
          line.put("Tenant", tenantDimension(r.tenant()));
          line.put("tenant", r.tenant());
          r.snapshots().forEach(line.putObject("snapshots")::put);
          line.put("arrowPeakBytes", s.arrowPeakBytes());
          line.put("engineMemoryBytes", s.engineMemoryBytes());
        });
    line.put("job", job);
    line.put("outcome", outcome);
    try {
      sink.accept(Json.mapper().writeValueAsString(line));
    } catch (JsonProcessingException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** A metric directive: dimension {@code Service}, and {@code Service,Tenant} if per tenant. */
  private static ArrayNode directive(ArrayNode directives, boolean perTenant) {
    ObjectNode directive = directives.addObject();
    directive.put("Namespace", NAMESPACE);
    ArrayNode dimensions = directive.putArray("Dimensions");
    dimensions.addArray().add("Service");
    if (perTenant) {
      dimensions.addArray().add("Service").add("Tenant");
    }
    return directive.putArray("Metrics");
  }

  private static void metric(
      ObjectNode line, ArrayNode metrics, String name, String unit, long value) {
    metrics.addObject().put("Name", name).put("Unit", unit);
    line.put(name, value);
  }

  private String tenantDimension(String tenant) {
    if (tenants.contains(tenant)) {
      return tenant;
    }
    if (tenants.size() < MAX_TENANT_DIMENSIONS) {
      tenants.add(tenant);
      return tenant;
    }
    return OTHER_TENANT;
  }
}
