package dev.lake.app;

import dev.lake.aws.AwsConfig;
import dev.lake.aws.SecretsManagerSecret;
import dev.lake.frontdoor.Authenticator;
import dev.lake.frontdoor.IdentityConfig;
import dev.lake.frontdoor.PolledPrincipals;
import java.nio.file.Path;
import java.time.Clock;
import java.util.List;
import java.util.Optional;
import picocli.CommandLine.Option;

/**
 * Where {@code serve}'s hashed static tokens come from: a principals file ({@code
 * --principals-file}, checked by calls for a change) or a Secrets Manager secret ({@code
 * --principals-secret}, polled off the call path by {@link PolledPrincipals}); at most one, and one
 * of them unless JWTs are configured.
 */
final class PrincipalsOptions {
  @Option(
      names = "--principals-file",
      description =
          "Principals JSON file of hashed static tokens (this, --principals-secret or"
              + " --jwt-jwks-url is required); read again when it changes.")
  Path file;

  @Option(
      names = "--principals-secret",
      description =
          "Secrets Manager secret (ARN or name) holding the principals JSON, instead of"
              + " --principals-file; polled every --principals-reload-interval: a new version"
              + " replaces the set, a bad one keeps the last good set.")
  String secret;

  /** The secret and how to reach Secrets Manager. */
  record Secret(String id, AwsConfig aws) {}

  /** The validated choice: a file, a secret, or neither (JWTs only). */
  record Source(Optional<Path> file, Optional<Secret> secret) {}

  /** The validated choice; {@code aws} reaches Secrets Manager (region, endpoint, timeout). */
  Source source(IdentityConfig identity, AwsConfig aws) {
    if (file != null && secret != null) {
      throw new IllegalArgumentException(
          "--principals-file and --principals-secret exclude each other: name one source");
    }
    if (secret != null && secret.isBlank()) {
      throw new IllegalArgumentException("--principals-secret is blank");
    }
    if (file == null && secret == null && identity.jwt().isEmpty()) {
      throw new IllegalArgumentException(
          "--principals-file (LAKE_PRINCIPALS_FILE) or --principals-secret"
              + " (LAKE_PRINCIPALS_SECRET) is required unless --jwt-jwks-url is set");
    }
    return new Source(
        Optional.ofNullable(file), Optional.ofNullable(secret).map(id -> new Secret(id, aws)));
  }

  /**
   * The authenticator of {@code source}: a secret is read now (missing, unreadable or invalid
   * refuses to start) and its poller is added to {@code owned}, to be closed with the server.
   */
  static Authenticator authenticator(
      Source source, IdentityConfig identity, Clock clock, List<AutoCloseable> owned) {
    if (source.secret().isEmpty()) {
      return identity.authenticator(source.file(), clock);
    }
    Secret s = source.secret().get();
    PolledPrincipals polled =
        PolledPrincipals.start(
            new SecretPrincipalsSource(new SecretsManagerSecret(s.aws(), s.id())),
            identity.principalsReloadInterval(),
            clock);
    owned.add(polled);
    return identity.authenticator(Optional.of(polled));
  }
}
