package dev.lake.worker;

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
    assertThat(c.resultPrefix()).isEqualTo("results");
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
