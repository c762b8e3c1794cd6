package dev.lake.bench;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The harness plumbing end to end at a tiny scale: data generation, servers, the forked client JVM,
 * JMH, and the three outputs. Checks well-formedness, not timings.
 */
class HarnessTest {
  private static final ObjectMapper JSON = new ObjectMapper();

  @TempDir Path out;

  @Test
  void run_writesOneWellFormedJsonLinePerResult_withPositiveFiguresForMeasuredParts()
      throws Exception {
    // GIVEN SF 0.01, no warm-up, one timed run per side, tiny JMH, client loops in this JVM
    // (ClientRunnerTest covers the forked client JVM once)
    Path cache = Path.of("target", "bench-test-cache").toAbsolutePath();
    BenchConfig config = new BenchConfig(0.01, 0, 1, out, cache, Set.of(), false, 0, 50);
    ByteArrayOutputStream stdout = new ByteArrayOutputStream();

    // WHEN
    List<Result> results =
        Harness.run(config, new PrintStream(stdout, true, StandardCharsets.UTF_8));

    // THEN every metric reported, none failed
    assertThat(results).extracting(Result::id).containsAll(BenchConfig.METRIC_IDS);
    assertThat(results)
        .as("failed results: %s", results)
        .noneMatch(r -> r.status() == Result.Status.FAILED);
    // AND the durable tier is wired: every P4 figure is measured
    assertThat(results)
        .filteredOn(r -> r.id().equals("P4"))
        .extracting(Result::variant)
        .containsExactly("overhead", "submit-overhead", "parallel-download", "parallel-speedup");
    assertThat(results)
        .filteredOn(r -> r.id().equals("P4"))
        .allMatch(r -> r.status() == Result.Status.MEASURED);
    // AND P1 measures the JDBC driver against raw Flight and against its own floor
    assertThat(results)
        .filteredOn(r -> r.id().equals("P1"))
        .extracting(Result::variant)
        .containsExactly("vs-raw-flight", "vs-duckdb", "jdbc-vs-raw-flight", "jdbc-vs-jdbc-floor");
    assertThat(results)
        .filteredOn(r -> r.id().equals("P1"))
        .allMatch(r -> r.status() == Result.Status.MEASURED);
    // AND P3 measures never-seen statement texts against the repeated text
    assertThat(results)
        .filteredOn(r -> r.id().equals("P3") && r.variant().startsWith("geomean-lance-"))
        .extracting(Result::variant)
        .contains("geomean-lance-comment-vs-repeated", "geomean-lance-literal-vs-repeated");
    // AND results.jsonl holds one parseable line per result
    List<String> lines = Files.readAllLines(out.resolve("results.jsonl"));
    assertThat(lines).hasSize(results.size());
    List<JsonNode> measured = new ArrayList<>();
    for (String line : lines) {
      JsonNode n = JSON.readTree(line);
      assertThat(n.get("id").asText()).isIn(BenchConfig.METRIC_IDS);
      assertThat(n.get("unit").asText()).isNotEmpty();
      assertThat(n.get("note").asText())
          .as("the load it ran under")
          .containsPattern("load \\S+ → \\S+$");
      assertThat(n.has("lake") && n.has("baseline") && n.has("ratio") && n.has("p95")).isTrue();
      if (n.get("status").asText().equals("measured")) {
        measured.add(n);
      } else {
        assertThat(n.get("status").asText()).isEqualTo("not_available");
        assertThat(n.get("note").asText()).isNotBlank();
      }
    }
    // AND every measured figure is a positive number, p95 at least the median
    assertThat(measured).isNotEmpty();
    for (JsonNode n : measured) {
      if (!n.get("variant").asText().equals("overhead")) {
        // a difference of two times (P4 overhead) may be negative within noise
        assertThat(n.get("lake").asDouble()).as(n.toString()).isPositive();
      }
      assertThat(n.get("p95").asDouble())
          .as(n.toString())
          .isGreaterThanOrEqualTo(n.get("lake").asDouble());
      if (!n.get("baseline").isNull()) {
        assertThat(n.get("baseline").asDouble()).as(n.toString()).isPositive();
        if (n.get("lake").asDouble() > 0) {
          assertThat(n.get("ratio").asDouble()).as(n.toString()).isPositive();
        } else {
          // no ratio of a non-positive difference (P4 overhead within noise)
          assertThat(n.get("ratio").isNull()).as(n.toString()).isTrue();
        }
      }
    }
    // AND the table, report and chart exist
    assertThat(stdout.toString(StandardCharsets.UTF_8)).contains("P5", "ratio");
    assertThat(Files.readString(out.resolve("report.md")))
        .contains(
            "## Machine",
            "nproc",
            "java",
            "![ratios](chart.svg)",
            "Iceberg REST catalog in a JVM of its own");
    assertThat(Files.readString(out.resolve("chart.svg"))).startsWith("<svg");
  }
}
