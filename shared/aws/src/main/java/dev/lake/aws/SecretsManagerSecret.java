package dev.lake.aws;

import static java.util.Objects.requireNonNull;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.Optional;
import software.amazon.awssdk.core.exception.SdkException;
import software.amazon.awssdk.http.urlconnection.UrlConnectionHttpClient;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.secretsmanager.SecretsManagerClient;
import software.amazon.awssdk.services.secretsmanager.model.GetSecretValueResponse;

/**
 * One Secrets Manager secret, read whole: the {@code AWSCURRENT} version's id and its string (or
 * binary) value. Each version of a secret is immutable, so an unchanged version id means unchanged
 * content. Its own client, with the deployment's region, endpoint and call timeout ({@link
 * AwsConfig}); the SDK's retries stay on inside that timeout.
 */
public final class SecretsManagerSecret implements AutoCloseable {
  private final SecretsManagerClient client;
  private final String secretId;

  /** The current version of a secret: its id and its value as bytes. */
  public record Value(String versionId, byte[] bytes) {
    public Value {
      requireNonNull(versionId, "versionId is null");
      requireNonNull(bytes, "bytes is null");
    }
  }

  /**
   * @param secretId the secret's ARN or name
   */
  public SecretsManagerSecret(AwsConfig config, String secretId) {
    requireNonNull(config, "config is null");
    this.secretId = requireNonNull(secretId, "secretId is null");
    if (secretId.isBlank()) {
      throw new IllegalArgumentException("secret id is blank");
    }
    var builder =
        SecretsManagerClient.builder()
            .httpClient(UrlConnectionHttpClient.builder().build())
            .region(Region.of(config.region()))
            .overrideConfiguration(o -> o.apiCallTimeout(config.apiCallTimeout()))
            .credentialsProvider(AwsClients.credentials(config.endpoint()));
    config.endpoint().ifPresent(builder::endpointOverride);
    this.client = builder.build();
  }

  /** The secret's ARN or name, as configured. */
  public String secretId() {
    return secretId;
  }

  /**
   * The current version.
   *
   * @throws IOException naming the secret and the service's reason when it cannot be read (missing,
   *     refused, unreachable, no value)
   */
  public Value read() throws IOException {
    GetSecretValueResponse r;
    try {
      r = client.getSecretValue(b -> b.secretId(secretId));
    } catch (SdkException e) {
      throw new IOException("cannot read secret " + secretId + ": " + e.getMessage(), e);
    }
    Optional<byte[]> bytes =
        Optional.ofNullable(r.secretString())
            .map(s -> s.getBytes(StandardCharsets.UTF_8))
            .or(() -> Optional.ofNullable(r.secretBinary()).map(b -> b.asByteArray()));
    if (bytes.isEmpty() || r.versionId() == null) {
      throw new IOException("secret " + secretId + " has no current value");
    }
    return new Value(r.versionId(), bytes.get());
  }

  @Override
  public void close() {
    client.close();
  }
}
