package dev.lake.worker;

import static java.util.Objects.requireNonNull;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.lake.core.Json;
import java.io.UncheckedIOException;
import java.time.Instant;
import java.util.Map;
import java.util.function.Consumer;

/**
 * The worker's metrics as CloudWatch embedded metric format: one JSON line per job on standard
 * output, which Lambda ships to CloudWatch Logs, where the {@code _aws} block turns the named
 * fields into metrics (namespace {@value #NAMESPACE}, dimension {@code Service=worker}) without an
 * API call on the job's path. Timings are milliseconds; CloudWatch keeps their distributions, so
 * the dashboard draws p50/p99.
 */
final class EmfMetrics {
  static final String NAMESPACE = "lake";

  private final Consumer<String> sink;

  EmfMetrics(Consumer<String> sink) {
    this.sink = requireNonNull(sink, "sink is null");
  }

  static EmfMetrics stdout() {
    return new EmfMetrics(System.out::println);
  }

  /**
   * One job's line: {@code timings} (metric name → milliseconds, e.g. {@code QueueWaitMillis},
   * {@code ExecutionMillis}) become metrics; {@code job} and {@code outcome} stay searchable
   * properties, not dimensions (unbounded values would multiply metrics).
   */
  void job(Instant at, String job, String outcome, Map<String, Long> timings) {
    ObjectNode line = Json.mapper().createObjectNode();
    ObjectNode aws = line.putObject("_aws");
    aws.put("Timestamp", at.toEpochMilli());
    ObjectNode directive = aws.putArray("CloudWatchMetrics").addObject();
    directive.put("Namespace", NAMESPACE);
    directive.putArray("Dimensions").addArray().add("Service");
    ArrayNode metrics = directive.putArray("Metrics");
    line.put("Service", "worker");
    timings.forEach(
        (name, millis) -> {
          metrics.addObject().put("Name", name).put("Unit", "Milliseconds");
          line.put(name, millis);
        });
    line.put("job", job);
    line.put("outcome", outcome);
    try {
      sink.accept(Json.mapper().writeValueAsString(line));
    } catch (JsonProcessingException e) {
      throw new UncheckedIOException(e);
    }
  }
}
