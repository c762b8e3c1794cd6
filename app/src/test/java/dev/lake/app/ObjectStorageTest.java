package dev.lake.app;

import static org.assertj.core.api.Assertions.assertThat;

import dev.lake.aws.AwsClients;
import dev.lake.aws.AwsConfig;
import dev.lake.core.StorageAccess;
import java.net.URI;
import java.time.Duration;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** The object-store access table formats get comes from the deployment's AWS settings only. */
class ObjectStorageTest {
  static AwsConfig aws(Optional<URI> endpoint) {
    return new AwsConfig("eu-west-1", endpoint, "b", "j", "q", "k", Duration.ofSeconds(10));
  }

  @Test
  void onAws_onlyTheRegionIsSet_andCredentialsComeFromTheDefaultChain() {
    assertThat(ObjectStorage.access(Optional.of(aws(Optional.empty()))))
        .isEqualTo(new StorageAccess(Optional.of("eu-west-1"), Optional.empty(), Optional.empty()));
  }

  @Test
  void onAnEmulator_theEndpointIsKept() {
    // GIVEN an emulator endpoint
    URI moto = URI.create("http://127.0.0.1:5000");
    // WHEN the access is derived
    StorageAccess access = ObjectStorage.access(Optional.of(aws(Optional.of(moto))));
    // THEN it names the endpoint, and a key only as the SDK clients would use one
    assertThat(access.region()).contains("eu-west-1");
    assertThat(access.endpoint()).contains(moto);
    assertThat(access.staticKey().isPresent())
        .isEqualTo(AwsClients.usesEmulatorCredentials(Optional.of(moto)));
  }

  @Test
  void withoutAws_thereIsNoAccess() {
    assertThat(ObjectStorage.access(Optional.empty())).isEqualTo(StorageAccess.none());
  }
}
