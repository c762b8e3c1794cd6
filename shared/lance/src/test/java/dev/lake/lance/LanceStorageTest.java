package dev.lake.lance;

import static org.assertj.core.api.Assertions.assertThat;

import dev.lake.core.StorageAccess;
import java.net.URI;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class LanceStorageTest {
  @Test
  void onAws_onlyTheRegionIsSet() {
    assertThat(
            LanceStorage.options(
                new StorageAccess(Optional.of("eu-west-1"), Optional.empty(), Optional.empty())))
        .isEqualTo(Map.of("aws_region", "eu-west-1"));
  }

  @Test
  void onAnEmulator_theEndpointIsPathStyle_plainHttpIsAllowed_andTheKeyIsPassed() {
    // GIVEN access to an emulator over plain HTTP with its fixed key
    StorageAccess access =
        new StorageAccess(
            Optional.of("eu-west-1"),
            Optional.of(URI.create("http://127.0.0.1:5000")),
            Optional.of(new StorageAccess.StaticKey("test", "secret")));
    // THEN Lance gets the endpoint, path-style addressing, plain HTTP and the key
    assertThat(LanceStorage.options(access))
        .containsEntry("aws_endpoint", "http://127.0.0.1:5000")
        .containsEntry("allow_http", "true")
        .containsEntry("aws_virtual_hosted_style_request", "false")
        .containsEntry("aws_region", "eu-west-1")
        .containsEntry("aws_access_key_id", "test")
        .containsEntry("aws_secret_access_key", "secret");
  }

  @Test
  void withoutARegion_thereAreNoOptions() {
    assertThat(LanceStorage.options(StorageAccess.none())).isEmpty();
  }
}
