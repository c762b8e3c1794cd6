package dev.lake.app;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.lake.engine.EngineConfig;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.Test;

class RuntimeConfigTest {
  static final EngineConfig ENGINE = EngineConfig.defaults(Path.of("/tmp/spill"));

  @Test
  void defaults_areNoIcebergNoAws_andOneSecondRegistryFreshness() {
    RuntimeConfig c =
        RuntimeConfig.builder(
                RegistrySource.file(Path.of("/r.json")), new KeySource.File(Path.of("/k")), ENGINE)
            .build();
    assertThat(c.formatSettings()).isEmpty();
    assertThat(c.aws()).isEmpty();
    assertThat(c.registry().freshness()).isEqualTo(Duration.ofSeconds(1));
  }

  @Test
  void dynamoDbRegistry_andKmsKeys_needTheAwsSettings() {
    assertThatThrownBy(
            () ->
                RuntimeConfig.builder(
                        RegistrySource.dynamoDb("t"), new KeySource.File(Path.of("/k")), ENGINE)
                    .build())
        .hasMessage("a DynamoDB registry needs the AWS settings");
    assertThatThrownBy(
            () ->
                RuntimeConfig.builder(
                        RegistrySource.file(Path.of("/r")), new KeySource.Kms(), ENGINE)
                    .build())
        .hasMessage("KMS keys need the AWS settings");
  }

  @Test
  void registryFreshness_isBounded_withTheBadValueInTheMessage() {
    assertThatThrownBy(() -> RegistrySource.dynamoDb("t").withFreshness(Duration.ofMinutes(5)))
        .hasMessageContaining("registryFreshness")
        .hasMessageContaining("PT5M");
  }
}
