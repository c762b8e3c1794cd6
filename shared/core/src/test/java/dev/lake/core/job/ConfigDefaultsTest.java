package dev.lake.core.job;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import org.junit.jupiter.api.Test;

class ConfigDefaultsTest {
  @Test
  void resultConfig_defaults_areDocumentedValues() {
    ResultConfig c = ResultConfig.defaults();
    assertThat(c.maxPartBytes()).isEqualTo(64L << 20);
    assertThat(c.maxPartRows()).isEqualTo(4_000_000);
    assertThat(c.maxMessageBytes()).isEqualTo(64L << 20);
    assertThat(c.maxBatchRows()).isEqualTo(1_000_000);
    assertThat(c.maxMetadataBytes()).isEqualTo(1 << 20);
    assertThat(c.resultTtl()).isEqualTo(Duration.ofHours(24));
  }

  @Test
  void resultConfig_rejectsOutOfRange() {
    assertThatThrownBy(() -> new ResultConfig(10, 1, 1024, 1, 1024, Duration.ofHours(1)))
        .hasMessage("maxPartBytes must be between 1024 and 4294967296: 10");
  }

  @Test
  void durableConfig_defaults_areDocumentedValues() {
    DurableConfig c = DurableConfig.defaults();
    assertThat(c.jobTtl()).isEqualTo(Duration.ofHours(24));
    assertThat(c.partTicketTtl()).isEqualTo(Duration.ofMinutes(15));
    assertThat(c.maxQueuedPerTenant()).isEqualTo(100);
  }

  @Test
  void durableConfig_rejectsAQueuedBoundOutOfRange_namingTheValue() {
    assertThatThrownBy(() -> DurableConfig.defaults().withMaxQueuedPerTenant(0))
        .hasMessage("maxQueuedPerTenant must be between 1 and 100000: 0");
    assertThat(DurableConfig.defaults().withMaxQueuedPerTenant(100_000).maxQueuedPerTenant())
        .isEqualTo(100_000);
  }

  @Test
  void resultLayout_defaults_areResultsUnderResults_withTheDefaultBounds() {
    ResultLayout c = ResultLayout.defaults();
    assertThat(c.prefix()).isEqualTo("results");
    assertThat(c.bounds()).isEqualTo(ResultConfig.defaults());
    assertThat(c.directory("acme", "q1")).isEqualTo("results/acme/q1");
    assertThat(c.withPrefix("").directory("acme", "q1")).isEqualTo("acme/q1");
  }

  @Test
  void resultLayout_rejectsAbsolutePrefix() {
    assertThatThrownBy(() -> ResultLayout.defaults().withPrefix("/abs"))
        .hasMessage("resultPrefix must be empty or a relative key prefix: /abs");
  }

  @Test
  void durableConfig_rejectsAJobTtlOutOfRange_namingTheValue() {
    assertThatThrownBy(() -> DurableConfig.defaults().withJobTtl(Duration.ofSeconds(5)))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("jobTtl must be between PT1M and PT720H: PT5S");
  }
}
