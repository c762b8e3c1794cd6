package dev.lake.frontdoor;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.lake.core.job.DurableConfig;
import dev.lake.worker.WorkerConfig;
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
    assertThat(c.withResultPrefix("").durable().resultPrefix()).isEmpty();
    assertThat(c.withResultPrefix("").worker().resultPrefix()).isEmpty();
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
                    d.worker()))
        .hasMessage("pollWait must be between PT0S and PT10S: PT6M");
    assertThatThrownBy(
            () ->
                new DurableTierConfig(
                    d.pollWait(),
                    Duration.ofMinutes(6),
                    2,
                    d.sweepEvery(),
                    d.durable(),
                    d.worker()))
        .hasMessage("waitBudget must be between PT0S and PT5M: PT6M");
    assertThatThrownBy(() -> d.withWorkers(65)).hasMessage("workers must be between 0 and 64: 65");
    assertThatThrownBy(
            () ->
                new DurableTierConfig(
                    d.pollWait(),
                    d.waitBudget(),
                    2,
                    d.sweepEvery(),
                    d.withResultPrefix("other").durable(),
                    d.worker()))
        .hasMessage("worker and front door must use the same result prefix and result bounds");
  }
}
