package dev.lake.app;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.lake.aws.AwsConfig;
import dev.lake.core.DataLocations;
import dev.lake.engine.EngineConfig;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class RuntimeConfigTest {
  static final EngineConfig ENGINE = EngineConfig.defaults(Path.of("/tmp/spill"));

  @Test
  void defaults_areNoIcebergNoAws_andOneSecondRegistryFreshness() {
    RuntimeConfig c =
        RuntimeConfig.builder(
                RegistrySource.file(Path.of("/r.json")), new KeySource.File(Path.of("/k")), ENGINE)
            .build();
    // no data locations named: the formats get NONE and read nothing (fail closed)
    assertThat(c.formatSettings()).containsExactly(DataLocations.NONE);
    assertThat(c.aws()).isEmpty();
    assertThat(c.registry().freshness()).isEqualTo(Duration.ofSeconds(1));
  }

  @Test
  void dataLocations_keepTheGivenOnes_andRefuseLocalDirectoriesWithADynamoDbRegistry(
      @TempDir Path dir) {
    // GIVEN data locations with a local directory
    DataLocations local = DataLocations.parse(dir.toString(), true);
    RuntimeConfig.Builder oneMachine =
        RuntimeConfig.builder(
                RegistrySource.file(Path.of("/r.json")), new KeySource.File(Path.of("/k")), ENGINE)
            .formatSettings(List.of(local));
    // THEN a one-machine process keeps them as given, also with AWS ports (a registry file)
    assertThat(oneMachine.build().formatSettings()).containsExactly(local);
    AwsConfig aws =
        new AwsConfig(
            "us-east-1", Optional.empty(), "b", "j", "q", "k", AwsConfig.DEFAULT_CALL_TIMEOUT);
    assertThat(oneMachine.aws(Optional.of(aws)).build().formatSettings()).containsExactly(local);
    // AND a fleet (a DynamoDB registry) refuses them at start, naming the flag
    assertThatThrownBy(
            () ->
                RuntimeConfig.builder(RegistrySource.dynamoDb("t"), new KeySource.Kms(), ENGINE)
                    .formatSettings(List.of(local))
                    .aws(Optional.of(aws))
                    .build())
        .hasMessage(
            "--data-locations (LAKE_DATA_LOCATIONS): local directories are refused with a"
                + " DynamoDB registry; a fleet reads s3://bucket/prefix/ locations only");
    DataLocations s3 = DataLocations.parse("s3://lake-data/t/", false);
    assertThat(
            RuntimeConfig.builder(RegistrySource.dynamoDb("t"), new KeySource.Kms(), ENGINE)
                .formatSettings(List.of(s3))
                .aws(Optional.of(aws))
                .build()
                .formatSettings())
        .containsExactly(s3);
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
