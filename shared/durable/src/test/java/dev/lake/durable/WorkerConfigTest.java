package dev.lake.durable;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import org.junit.jupiter.api.Test;

class WorkerConfigTest {
  @Test
  void defaults_areDocumentedValues() {
    WorkerConfig c = WorkerConfig.defaults();
    assertThat(c.lease()).isEqualTo(Duration.ofSeconds(60));
    assertThat(c.renewEvery()).isEqualTo(Duration.ofSeconds(15));
    assertThat(c.maxExecution()).isEqualTo(Duration.ofMinutes(14));
    assertThat(c.lambdaMargin()).isEqualTo(Duration.ofSeconds(20));
    assertThat(c.maxAttempts()).isEqualTo(3);
    assertThat(c.retryDelay()).isEqualTo(Duration.ofSeconds(5));
    assertThat(c.maxRunning()).isEqualTo(64);
    assertThat(c.maxRunningPerTenant()).isEqualTo(8);
    assertThat(c.runningLimits()).isEqualTo(dev.lake.core.job.JobLimits.running(8, 64));
    assertThat(c.splitRows()).isEqualTo(4_000_000);
    assertThat(c.maxFanOut()).isEqualTo(16);
  }

  @Test
  void fanOut_outOfRange_isRejected_namingTheValue() {
    assertThatThrownBy(() -> WorkerConfig.defaults().withSplitRows(999))
        .hasMessage("splitRows must be between 1000 and 1000000000000: 999");
    assertThatThrownBy(() -> WorkerConfig.defaults().withMaxFanOut(0))
        .hasMessage("maxFanOut must be between 1 and 1000: 0");
    assertThatThrownBy(() -> WorkerConfig.defaults().withMaxFanOut(1_001))
        .hasMessage("maxFanOut must be between 1 and 1000: 1001");
  }

  @Test
  void executionLease_outOfRange_isRejected_namingTheValue() {
    assertThatThrownBy(() -> WorkerConfig.defaults().withMaxRunning(0))
        .hasMessage("maxRunning must be between 1 and 10000: 0");
    assertThatThrownBy(() -> WorkerConfig.defaults().withMaxRunningPerTenant(10_001))
        .hasMessage("maxRunningPerTenant must be between 1 and 10000: 10001");
  }

  @Test
  void renewal_mustBeAtMostHalfTheLease() {
    assertThatThrownBy(
            () ->
                WorkerConfigBuilder.builder()
                    .lease(Duration.ofSeconds(10))
                    .renewEvery(Duration.ofSeconds(6))
                    .build())
        .hasMessage("renewEvery must be between PT0.1S and PT5S: PT6S");
  }
}
