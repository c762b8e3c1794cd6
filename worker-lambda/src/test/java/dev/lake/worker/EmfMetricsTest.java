package dev.lake.worker;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.lake.core.Json;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class EmfMetricsTest {
  @Test
  void job_writesOneEmbeddedMetricFormatLineWithEveryTimingDeclared() throws Exception {
    List<String> lines = new ArrayList<>();
    Map<String, Long> timings = new LinkedHashMap<>();
    timings.put("QueueWaitMillis", 120L);
    timings.put("ExecutionMillis", 3400L);
    // WHEN one job's timings are emitted
    new EmfMetrics(lines::add)
        .job(Instant.ofEpochMilli(1_700_000_000_000L), "j-1", "DONE", timings);
    // THEN the line declares namespace, dimension and each metric, and carries their values
    assertThat(lines).hasSize(1);
    JsonNode line = Json.mapper().readTree(lines.get(0));
    JsonNode directive = line.at("/_aws/CloudWatchMetrics/0");
    assertThat(line.at("/_aws/Timestamp").asLong()).isEqualTo(1_700_000_000_000L);
    assertThat(directive.get("Namespace").asText()).isEqualTo("lake");
    assertThat(directive.at("/Dimensions/0/0").asText()).isEqualTo("Service");
    assertThat(directive.get("Metrics").findValuesAsText("Name"))
        .containsExactly("QueueWaitMillis", "ExecutionMillis");
    assertThat(directive.get("Metrics").findValuesAsText("Unit")).containsOnly("Milliseconds");
    assertThat(line.get("Service").asText()).isEqualTo("worker");
    assertThat(line.get("QueueWaitMillis").asLong()).isEqualTo(120);
    assertThat(line.get("ExecutionMillis").asLong()).isEqualTo(3400);
    assertThat(line.get("job").asText()).isEqualTo("j-1");
    assertThat(line.get("outcome").asText()).isEqualTo("DONE");
  }
}
