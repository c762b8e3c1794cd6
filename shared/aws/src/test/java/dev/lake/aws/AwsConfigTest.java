package dev.lake.aws;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;

class AwsConfigTest {
  private static final Map<String, String> REQUIRED =
      Map.of(
          "LAKE_RESULT_BUCKET", "b",
          "LAKE_JOB_TABLE", "jobs",
          "LAKE_JOB_QUEUE_URL", "http://q",
          "LAKE_KMS_KEY_ID", "k");

  @Test
  void fromEnv_appliesTheDocumentedDefaults() {
    AwsConfig c = AwsConfig.fromEnv(REQUIRED);

    assertThat(c.region()).isEqualTo("us-east-1");
    assertThat(c.endpoint()).isEmpty();
    assertThat(c.apiCallTimeout()).isEqualTo(Duration.ofSeconds(10));
  }

  @Test
  void fromEnv_rejectsACallTimeoutOutOfRange_namingTheVariableAndValue() {
    // GIVEN a call timeout of 10 minutes (the bound is 5)
    Map<String, String> env = new java.util.HashMap<>(REQUIRED);
    env.put("LAKE_AWS_CALL_TIMEOUT_MS", "600000");

    // WHEN read THEN the message names the setting, its variable, the bounds and the value
    assertThatThrownBy(() -> AwsConfig.fromEnv(env))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage(
            "apiCallTimeout (LAKE_AWS_CALL_TIMEOUT_MS) must be between PT1S and PT5M: PT10M");
  }

  @Test
  void fromEnv_rejectsANonNumericCallTimeout() {
    Map<String, String> env = new java.util.HashMap<>(REQUIRED);
    env.put("LAKE_AWS_CALL_TIMEOUT_MS", "ten");

    assertThatThrownBy(() -> AwsConfig.fromEnv(env))
        .hasMessage("LAKE_AWS_CALL_TIMEOUT_MS must be a number of milliseconds: ten");
  }

  @Test
  void kmsKeyConfig_defaults_areDocumentedValues() {
    KmsKeyConfig c = KmsKeyConfig.defaults();

    assertThat(c.rotateEvery()).isEqualTo(Duration.ofHours(1));
    assertThat(c.keyLifetime()).isEqualTo(Duration.ofHours(48));
    assertThat(c.refreshEvery()).isEqualTo(Duration.ofMinutes(1));
    assertThat(c.maxKeys()).isEqualTo(64);
  }

  @Test
  void kmsKeyConfig_rejectsAKeyLifetimeShorterThanTwoRotations_namingTheValue() {
    assertThatThrownBy(
            () ->
                new KmsKeyConfig(
                    Duration.ofHours(1), Duration.ofMinutes(90), Duration.ofMinutes(1), 64))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("keyLifetime must be between PT2H and PT720H: PT1H30M");
  }
}
