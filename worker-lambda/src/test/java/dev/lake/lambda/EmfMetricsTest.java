package dev.lake.lambda;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.lake.core.Json;
import dev.lake.core.QueryStats;
import dev.lake.durable.AttemptReport;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class EmfMetricsTest {
  private final List<String> lines = new ArrayList<>();
  private final EmfMetrics metrics = new EmfMetrics(lines::add);

  private static Map<String, Long> timings() {
    Map<String, Long> timings = new LinkedHashMap<>();
    timings.put("QueueWaitMillis", 120L);
    timings.put("ProcessingMillis", 3400L);
    return timings;
  }

  private static AttemptReport report(String tenant) {
    return new AttemptReport(
        "j-1",
        tenant,
        Map.of("lake.tpch.lineitem", "lance version 3"),
        Duration.ofMillis(40),
        Duration.ofMillis(3000),
        Duration.ofMillis(300),
        60_175,
        new QueryStats(1_000_000, 500_000, 2_000_000, 4_000_000, 123));
  }

  @Test
  void delivery_withoutAttempt_writesOneLineWithItsTimingsDeclared() throws Exception {
    // WHEN a delivery that ran no attempt is emitted
    metrics.job(
        Instant.ofEpochMilli(1_700_000_000_000L), "j-1", "RETRY", timings(), Optional.empty());
    // THEN the line declares namespace, dimension and each timing, and carries their values
    assertThat(lines).hasSize(1);
    JsonNode line = Json.mapper().readTree(lines.get(0));
    JsonNode directives = line.at("/_aws/CloudWatchMetrics");
    assertThat(directives).hasSize(1);
    JsonNode directive = directives.get(0);
    assertThat(line.at("/_aws/Timestamp").asLong()).isEqualTo(1_700_000_000_000L);
    assertThat(directive.get("Namespace").asText()).isEqualTo("lake");
    assertThat(directive.at("/Dimensions/0/0").asText()).isEqualTo("Service");
    assertThat(directive.get("Metrics").findValuesAsText("Name"))
        .containsExactly("QueueWaitMillis", "ProcessingMillis");
    assertThat(directive.get("Metrics").findValuesAsText("Unit")).containsOnly("Milliseconds");
    assertThat(line.get("Service").asText()).isEqualTo("worker");
    assertThat(line.get("QueueWaitMillis").asLong()).isEqualTo(120);
    assertThat(line.get("ProcessingMillis").asLong()).isEqualTo(3400);
    assertThat(line.get("job").asText()).isEqualTo("j-1");
    assertThat(line.get("outcome").asText()).isEqualTo("RETRY");
    assertThat(line.has("Tenant")).isFalse();
  }

  @Test
  void attempt_addsPhaseTimings_andAccountingPerTenant() throws Exception {
    // WHEN a delivery that ran an attempt is emitted
    metrics.job(Instant.now(), "j-1", "DONE", timings(), Optional.of(report("acme")));
    JsonNode line = Json.mapper().readTree(lines.get(0));
    // THEN the timings directive also declares planning, execution and upload
    JsonNode timed = line.at("/_aws/CloudWatchMetrics/0");
    assertThat(timed.get("Metrics").findValuesAsText("Name"))
        .containsExactly(
            "QueueWaitMillis",
            "ProcessingMillis",
            "PlanningMillis",
            "ExecutionMillis",
            "UploadMillis");
    assertThat(line.get("PlanningMillis").asLong()).isEqualTo(40);
    assertThat(line.get("ExecutionMillis").asLong()).isEqualTo(3000);
    assertThat(line.get("UploadMillis").asLong()).isEqualTo(300);
    // AND a second directive declares the accounting by Service and by Service+Tenant
    JsonNode counted = line.at("/_aws/CloudWatchMetrics/1");
    assertThat(counted.get("Dimensions").toString())
        .isEqualTo("[[\"Service\"],[\"Service\",\"Tenant\"]]");
    assertThat(counted.get("Metrics").findValuesAsText("Name"))
        .containsExactly(
            "ScannedBytes", "ResultBytes", "MemoryPeakBytes", "SpillBytes", "ResultRows");
    assertThat(line.get("ScannedBytes").asLong()).isEqualTo(1_000_000);
    assertThat(line.get("MemoryPeakBytes").asLong()).isEqualTo(6_000_000);
    assertThat(line.get("SpillBytes").asLong()).isEqualTo(123);
    assertThat(line.get("ResultRows").asLong()).isEqualTo(60_175);
    assertThat(line.get("Tenant").asText()).isEqualTo("acme");
    // AND the job's tenant and exact snapshots are searchable properties
    assertThat(line.get("tenant").asText()).isEqualTo("acme");
    assertThat(line.at("/snapshots/lake.tpch.lineitem").asText()).isEqualTo("lance version 3");
  }

  @Test
  void tenantDimension_isBounded_laterTenantsShareOther() throws Exception {
    // GIVEN as many tenants as the bound allows have been seen
    for (int i = 0; i < EmfMetrics.MAX_TENANT_DIMENSIONS; i++) {
      metrics.job(Instant.now(), "j", "DONE", Map.of(), Optional.of(report("t" + i)));
    }
    // WHEN one more tenant's job is emitted, and then an early tenant's
    metrics.job(Instant.now(), "j", "DONE", Map.of(), Optional.of(report("late")));
    metrics.job(Instant.now(), "j", "DONE", Map.of(), Optional.of(report("t0")));
    // THEN the new tenant is dimensioned as _other but still named as a property
    JsonNode late = Json.mapper().readTree(lines.get(lines.size() - 2));
    assertThat(late.get("Tenant").asText()).isEqualTo(EmfMetrics.OTHER_TENANT);
    assertThat(late.get("tenant").asText()).isEqualTo("late");
    // AND an early tenant keeps its own dimension
    assertThat(Json.mapper().readTree(lines.get(lines.size() - 1)).get("Tenant").asText())
        .isEqualTo("t0");
  }
}
