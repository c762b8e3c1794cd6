package dev.lake.bench;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class StatsAndResultTest {
  @Test
  void p3CatalogNote_givesTheCatalogServersCpuPerLoadDuringP3_orNothingWithoutACatalog() {
    // GIVEN the Iceberg catalog server's usage before and after P3
    Optional<LakeStack.CatalogUsage> before =
        Optional.of(new LakeStack.CatalogUsage(1_000_000_000L, 100));
    Optional<LakeStack.CatalogUsage> after =
        Optional.of(new LakeStack.CatalogUsage(3_500_000_000L, 600));

    // WHEN noted / THEN the requests, CPU and CPU per request in between; nothing without a
    // catalog of the stack's own, and no per-request figure without requests
    assertThat(P3TpchQueries.catalogNote(before, after))
        .isEqualTo(
            "; Iceberg catalog JVM (same cores) during P3: 500 loadTable requests, 2.5 s CPU"
                + " (5.0 ms per request)");
    assertThat(P3TpchQueries.catalogNote(Optional.empty(), after)).isEmpty();
    assertThat(P3TpchQueries.catalogNote(after, after))
        .isEqualTo("; Iceberg catalog JVM (same cores) during P3: 0 loadTable requests, 0.0 s CPU");
    assertThatThrownBy(() -> new LakeStack.CatalogUsage(-1, 0))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("negative catalog usage: -1, 0");
  }

  @Test
  void stats_takeNearestRankMedianAndP95() {
    // GIVEN twenty samples 1..20 in random order
    double[] samples = {7, 3, 20, 1, 15, 9, 2, 11, 19, 4, 18, 6, 13, 5, 17, 8, 16, 10, 14, 12};

    // WHEN
    Stats stats = Stats.of(samples);

    // THEN
    assertThat(stats.median()).isEqualTo(10);
    assertThat(stats.p95()).isEqualTo(19);
    assertThat(stats.count()).isEqualTo(20);
  }

  @Test
  void jsonLine_carriesIdRatioUnitAndP95() throws Exception {
    // GIVEN
    Result r =
        Result.measured(
            "P1",
            "vs-raw-flight",
            new Stats(3, 4, 10),
            new Stats(1.5, 2, 10),
            "ms",
            "raw",
            false,
            "");

    // WHEN
    JsonNode json = new ObjectMapper().readTree(r.toJsonLine());

    // THEN
    assertThat(json.get("id").asText()).isEqualTo("P1");
    assertThat(json.get("lake").asDouble()).isEqualTo(3);
    assertThat(json.get("baseline").asDouble()).isEqualTo(1.5);
    assertThat(json.get("ratio").asDouble()).isEqualTo(2);
    assertThat(json.get("unit").asText()).isEqualTo("ms");
    assertThat(json.get("p95").asDouble()).isEqualTo(4);
    assertThat(json.get("status").asText()).isEqualTo("measured");
  }

  @Test
  void notAvailable_hasNoLakeFigureAndNoRatio() throws Exception {
    // GIVEN
    Result r = Result.notAvailable("P6", "loadTable-calls", null, "calls", "target 1", "missing");

    // WHEN
    JsonNode json = new ObjectMapper().readTree(r.toJsonLine());

    // THEN
    assertThat(json.get("lake").isNull()).isTrue();
    assertThat(json.get("ratio").isNull()).isTrue();
    assertThat(json.get("status").asText()).isEqualTo("not_available");
    assertThat(json.get("note").asText()).isEqualTo("missing");
  }

  @Test
  void p4Concat_keepsEveryRunOfEveryClientProcess_inOrder() {
    // GIVEN the samples of two client processes
    ClientSpec.Samples first =
        new ClientSpec.Samples(
            List.of(1L, 2L), List.of(10L, 20L), List.of(5L, 5L), List.of(9L, 9L));
    ClientSpec.Samples second =
        new ClientSpec.Samples(List.of(3L), List.of(30L), List.of(5L), List.of(8L));

    // WHEN pooled
    ClientSpec.Samples all = P4Async.concat(List.of(first, second));

    // THEN every run is kept with its bytes, rows and extra figure, in process order
    assertThat(all.nanos()).containsExactly(1L, 2L, 3L);
    assertThat(all.bytes()).containsExactly(10L, 20L, 30L);
    assertThat(all.rows()).containsExactly(5L, 5L, 5L);
    assertThat(all.extra()).containsExactly(9L, 9L, 8L);
  }

  @Test
  void chart_drawsOneBarPerRatio() {
    // GIVEN
    List<Result> results =
        List.of(
            Result.measured("P1", "a", new Stats(3, 4, 1), new Stats(1, 1, 1), "ms", "", false, ""),
            Result.notAvailable("P6", "b", null, "calls", "", "missing"));

    // WHEN
    String svg = SvgChart.render(results, "t & <t>");

    // THEN
    assertThat(svg).startsWith("<svg").contains("P1 a").doesNotContain("P6 b");
    assertThat(svg).contains("t &amp; &lt;t&gt;").contains("3.00×");
  }
}
