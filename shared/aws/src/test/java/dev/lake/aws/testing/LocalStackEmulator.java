package dev.lake.aws.testing;

import java.net.URI;
import org.testcontainers.containers.localstack.LocalStackContainer;
import org.testcontainers.utility.DockerImageName;

/**
 * LocalStack in Docker through Testcontainers' LocalStack module, used by {@link MotoExtension}
 * when a Docker engine is reachable. Only loaded on that path, so test modules without Docker never
 * touch Testcontainers.
 */
final class LocalStackEmulator implements AutoCloseable {
  /** Override with {@code LAKE_TEST_LOCALSTACK_IMAGE}. */
  static final String DEFAULT_IMAGE = "localstack/localstack:4.4";

  private final LocalStackContainer container;

  private LocalStackEmulator(LocalStackContainer container) {
    this.container = container;
  }

  static LocalStackEmulator start() {
    String image = System.getenv().getOrDefault("LAKE_TEST_LOCALSTACK_IMAGE", DEFAULT_IMAGE);
    LocalStackContainer container =
        new LocalStackContainer(DockerImageName.parse(image))
            .withServices(
                LocalStackContainer.Service.S3,
                LocalStackContainer.Service.DYNAMODB,
                LocalStackContainer.Service.SQS,
                LocalStackContainer.Service.KMS);
    container.start();
    return new LocalStackEmulator(container);
  }

  URI endpoint() {
    return container.getEndpoint();
  }

  @Override
  public void close() {
    container.stop();
  }
}
