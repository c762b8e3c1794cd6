package dev.lake.app;

import static java.util.Objects.requireNonNull;

import dev.lake.aws.SecretsManagerSecret;
import dev.lake.frontdoor.PrincipalsSource;
import java.io.IOException;

/**
 * The principals JSON in a Secrets Manager secret ({@code --principals-secret}): every {@code
 * put-secret-value} is a new immutable version, so the version id tells a poller whether to parse.
 */
final class SecretPrincipalsSource implements PrincipalsSource, AutoCloseable {
  private final SecretsManagerSecret secret;

  SecretPrincipalsSource(SecretsManagerSecret secret) {
    this.secret = requireNonNull(secret, "secret is null");
  }

  @Override
  public String name() {
    return "principals secret " + secret.secretId();
  }

  @Override
  public Version read() throws IOException {
    SecretsManagerSecret.Value value = secret.read();
    return new Version(value.versionId(), value.bytes());
  }

  @Override
  public void close() {
    secret.close();
  }
}
