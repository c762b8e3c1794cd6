package dev.lake.runtime;

import static org.assertj.core.api.Assertions.assertThat;

import dev.lake.aws.AwsConfig;
import java.net.URI;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** S3 settings of Lance and Iceberg come from the deployment only. */
class ObjectStorageTest {
  static AwsConfig aws(Optional<URI> endpoint) {
    return new AwsConfig("eu-west-1", endpoint, "b", "j", "q", "k", Duration.ofSeconds(10));
  }

  @Test
  void onAws_onlyTheRegionIsSet_andCredentialsComeFromTheDefaultChain() {
    assertThat(ObjectStorage.lance(Optional.of(aws(Optional.empty()))))
        .isEqualTo(Map.of("aws_region", "eu-west-1"));
    assertThat(ObjectStorage.iceberg(Optional.of(aws(Optional.empty()))))
        .isEqualTo(Map.of("client.region", "eu-west-1"));
  }

  @Test
  void onAnEmulator_theEndpointIsPathStyle_andPlainHttpIsAllowedForLance() {
    Map<String, String> lance =
        ObjectStorage.lance(Optional.of(aws(Optional.of(URI.create("http://127.0.0.1:5000")))));
    assertThat(lance)
        .containsEntry("aws_endpoint", "http://127.0.0.1:5000")
        .containsEntry("allow_http", "true")
        .containsEntry("aws_virtual_hosted_style_request", "false")
        .containsEntry("aws_region", "eu-west-1");
    Map<String, String> iceberg =
        ObjectStorage.iceberg(Optional.of(aws(Optional.of(URI.create("https://ls:4566")))));
    assertThat(iceberg)
        .containsEntry("s3.endpoint", "https://ls:4566")
        .containsEntry("s3.path-style-access", "true");
  }

  @Test
  void withoutAws_thereAreNoSettings() {
    assertThat(ObjectStorage.lance(Optional.empty())).isEmpty();
    assertThat(ObjectStorage.iceberg(Optional.empty())).isEmpty();
  }
}
