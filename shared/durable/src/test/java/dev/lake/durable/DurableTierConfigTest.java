package dev.lake.durable;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.lake.core.job.DurableConfig;
import dev.lake.core.job.ResultConfig;
import dev.lake.core.job.ResultLayout;
import java.time.Duration;
import org.junit.jupiter.api.Test;

class DurableTierConfigTest {
  @Test
  void defaults_areDocumented() {
    DurableTierConfig c = DurableTierConfig.defaults();
    assertThat(c.pollWait()).isEqualTo(Duration.ofSeconds(1));
    assertThat(c.waitBudget()).isEqualTo(Duration.ofSeconds(30));
    assertThat(c.workers()).isEqualTo(2);
    assertThat(c.sweepEvery()).isEqualTo(Duration.ofMinutes(10));
    assertThat(c.durable()).isEqualTo(DurableConfig.defaults());
    assertThat(c.worker()).isEqualTo(WorkerConfig.defaults());
    assertThat(c.layout()).isEqualTo(ResultLayout.defaults());
    assertThat(c.withResultPrefix("").layout().prefix()).isEmpty();
    assertThat(c.withResults(ResultConfig.defaults().withMaxPartRows(10)).layout().bounds())
        .isEqualTo(ResultConfig.defaults().withMaxPartRows(10));
  }

  @Test
  void constructor_rejectsOutOfRangeValues() {
    DurableTierConfig d = DurableTierConfig.defaults();
    assertThatThrownBy(
            () ->
                new DurableTierConfig(
                    Duration.ofMinutes(6),
                    d.waitBudget(),
                    2,
                    d.sweepEvery(),
                    d.durable(),
                    d.worker(),
                    d.layout()))
        .hasMessage("pollWait must be between PT0S and PT10S: PT6M");
    assertThatThrownBy(
            () ->
                new DurableTierConfig(
                    d.pollWait(),
                    Duration.ofMinutes(6),
                    2,
                    d.sweepEvery(),
                    d.durable(),
                    d.worker(),
                    d.layout()))
        .hasMessage("waitBudget must be between PT0S and PT5M: PT6M");
    assertThatThrownBy(() -> d.withWorkers(65)).hasMessage("workers must be between 0 and 64: 65");
    assertThatThrownBy(() -> d.withResultPrefix("/abs"))
        .hasMessage("resultPrefix must be empty or a relative key prefix: /abs");
  }
}
