package dev.lake.iceberg;

import static org.assertj.core.api.Assertions.assertThat;

import dev.lake.core.StorageAccess;
import java.net.URI;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class IcebergStorageTest {
  private static final StorageAccess EMULATOR =
      new StorageAccess(
          Optional.of("eu-west-1"),
          Optional.of(URI.create("https://ls:4566")),
          Optional.of(new StorageAccess.StaticKey("test", "secret")));

  @Test
  void onAws_onlyTheRegionIsSet() {
    assertThat(
            IcebergStorage.properties(
                new StorageAccess(Optional.of("eu-west-1"), Optional.empty(), Optional.empty())))
        .isEqualTo(Map.of("client.region", "eu-west-1"));
  }

  @Test
  void onAnEmulator_theEndpointIsPathStyle_andTheKeyIsPassed() {
    assertThat(IcebergStorage.properties(EMULATOR))
        .containsEntry("s3.endpoint", "https://ls:4566")
        .containsEntry("s3.path-style-access", "true")
        .containsEntry("s3.access-key-id", "test")
        .containsEntry("s3.secret-access-key", "secret");
    assertThat(IcebergStorage.properties(StorageAccess.none())).isEmpty();
  }

  @Test
  void under_keepsTheConfigurationsOwnProperties_overTheDeployments() {
    // GIVEN a catalog configuration naming its own S3 endpoint
    IcebergConfig config =
        IcebergConfig.fromFlags("https://catalog:8181", null, "tpch")
            .withProperties(Map.of("s3.endpoint", "http://own:9000"));
    // WHEN the deployment's access is put under it
    IcebergConfig merged = IcebergStorage.under(config, EMULATOR);
    // THEN its own endpoint wins and the deployment's region is added
    assertThat(merged.properties())
        .containsEntry("s3.endpoint", "http://own:9000")
        .containsEntry("client.region", "eu-west-1");
  }
}
