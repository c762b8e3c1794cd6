package dev.lake.bench;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Path;
import java.util.Set;
import org.junit.jupiter.api.Test;

class BenchConfigTest {
  private static final Path OUT = Path.of("out");
  private static final Path CACHE = Path.of("cache");

  @Test
  void defaults_runEveryMetricAtScaleOneInASeparateClientJvm() {
    // GIVEN / WHEN
    BenchConfig config = BenchConfig.defaults(OUT, CACHE);

    // THEN
    assertThat(config.scaleFactor()).isEqualTo(1.0);
    assertThat(config.warmups()).isEqualTo(3);
    assertThat(config.iterations()).isEqualTo(15);
    assertThat(config.forkClient()).isTrue();
    assertThat(config.jmhSeconds()).isEqualTo(1);
    assertThat(config.concurrentRequests()).isEqualTo(1000);
    assertThat(BenchConfig.METRIC_IDS).allMatch(config::runs);
    assertThat(config.dataDir()).isEqualTo(CACHE.resolve("sf-1"));
  }

  @Test
  void quick_usesScaleFactorOneTenth() {
    // GIVEN / WHEN
    BenchConfig config = BenchConfig.quick(OUT, CACHE);

    // THEN
    assertThat(config.scaleFactor()).isEqualTo(0.1);
    assertThat(config.iterations()).isEqualTo(5);
    assertThat(config.warmups()).isEqualTo(1);
    assertThat(config.dataDir()).isEqualTo(CACHE.resolve("sf-0.1"));
  }

  @Test
  void only_restrictsTheMetricsRun() {
    // GIVEN
    BenchConfig config = new BenchConfig(0.01, 0, 1, OUT, CACHE, Set.of("P1"), false, 0, 1000);

    // WHEN / THEN
    assertThat(config.runs("P1")).isTrue();
    assertThat(config.runs("P3")).isFalse();
  }

  @Test
  void constructor_rejectsOutOfRangeValues() {
    // GIVEN / WHEN / THEN
    assertThatThrownBy(() -> new BenchConfig(0, 0, 1, OUT, CACHE, Set.of(), true, 1, 1000))
        .hasMessage("scale factor must be between 0.001 and 100: 0.0");
    assertThatThrownBy(() -> new BenchConfig(1, -1, 1, OUT, CACHE, Set.of(), true, 1, 1000))
        .hasMessage("warmups must be between 0 and 1000: -1");
    assertThatThrownBy(() -> new BenchConfig(1, 0, 0, OUT, CACHE, Set.of(), true, 1, 1000))
        .hasMessage("iterations must be between 1 and 10000: 0");
    assertThatThrownBy(() -> new BenchConfig(1, 0, 1, OUT, CACHE, Set.of(), true, 61, 1000))
        .hasMessage("jmhSeconds must be between 0 and 60: 61");
    assertThatThrownBy(() -> new BenchConfig(1, 0, 1, OUT, CACHE, Set.of("P9"), true, 1, 1000))
        .hasMessageStartingWith("unknown metric P9");
    assertThatThrownBy(() -> new BenchConfig(1, 0, 1, OUT, CACHE, Set.of(), true, 1, 0))
        .hasMessage("concurrentRequests must be between 1 and 2000: 0");
  }

  @Test
  void warmup_isTimeBased_longerForSmallRequests_andCappedTighterInQuickRuns() {
    // GIVEN the quick and the full configuration
    BenchConfig quick = BenchConfig.quick(Path.of("out"), Path.of("cache"));
    BenchConfig full = BenchConfig.defaults(Path.of("out"), Path.of("cache"));

    // WHEN/THEN small requests warm at least 5 s (15 s) within 5 %, big ones are capped at 3 s
    assertThat(quick.warmup(true)).isEqualTo(new ClientSpec.Warmup(5_000, 30_000, 20, 0.05));
    assertThat(quick.warmup(false)).isEqualTo(new ClientSpec.Warmup(0, 3_000, 3, 0.10));
    assertThat(full.warmup(true).minMillis()).isEqualTo(15_000);
    assertThat(full.warmup(false).maxMillis()).isEqualTo(20_000);
  }

  @Test
  void warmupsZero_meansNoWarmUpAtAll_evenForSmallRequests() {
    // GIVEN a configuration asking for no warm-up rounds (the harness test's)
    BenchConfig cold = new BenchConfig(0.01, 0, 1, OUT, CACHE, Set.of(), false, 0, 50);

    // WHEN/THEN neither the 200 small-request rounds nor the time-based rule apply
    assertThat(cold.smallWarmups()).isZero();
    assertThat(cold.warmup(true)).isEqualTo(ClientSpec.Warmup.FIXED);
    assertThat(cold.warmup(false)).isEqualTo(ClientSpec.Warmup.FIXED);
    // AND one warm-up round keeps both
    BenchConfig warm = new BenchConfig(0.01, 1, 1, OUT, CACHE, Set.of(), false, 0, 50);
    assertThat(warm.smallWarmups()).isEqualTo(BenchConfig.SMALL_WARMUP_ROUNDS);
    assertThat(warm.warmup(true).maxMillis()).isPositive();
  }
}
