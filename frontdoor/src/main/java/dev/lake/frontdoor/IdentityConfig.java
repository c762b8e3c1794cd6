package dev.lake.frontdoor;

import static java.util.Objects.requireNonNull;

import dev.lake.core.Bounds;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.Optional;

/**
 * How the front door authenticates callers, validated once: hashed static tokens from a principals
 * file (read again when it changes), JWTs from an OIDC provider, or both.
 *
 * @param jwt JWT bearer identities; empty = static tokens only (the default)
 * @param principalsReloadInterval how often the principals file is checked for a change (default 10
 *     s, 1 s - 1 h)
 */
public record IdentityConfig(Optional<JwtConfig> jwt, Duration principalsReloadInterval) {
  public static final Duration DEFAULT_PRINCIPALS_RELOAD_INTERVAL = Duration.ofSeconds(10);

  public IdentityConfig {
    requireNonNull(jwt, "jwt is null");
    Bounds.check(
        "--principals-reload-interval",
        requireNonNull(principalsReloadInterval, "principalsReloadInterval is null"),
        Duration.ofSeconds(1),
        Duration.ofHours(1));
  }

  /** Static tokens only, the file checked every 10 s. */
  public static IdentityConfig defaults() {
    return new IdentityConfig(Optional.empty(), DEFAULT_PRINCIPALS_RELOAD_INTERVAL);
  }

  public IdentityConfig withJwt(JwtConfig config) {
    return new IdentityConfig(Optional.of(config), principalsReloadInterval);
  }

  /**
   * The authenticator of this configuration: the principals file (if any) loaded now and watched,
   * JWTs checked against the provider (if configured). Neither configured is an error.
   */
  public Authenticator authenticator(Optional<Path> principalsFile, Clock clock) {
    return authenticator(
        principalsFile.map(f -> new ReloadingPrincipals(f, principalsReloadInterval, clock)));
  }

  /**
   * The authenticator with {@code statics} for static tokens (e.g. {@link PolledPrincipals} of a
   * secret) and JWTs checked against the provider (if configured). Neither is an error.
   */
  public Authenticator authenticator(Optional<? extends Authenticator> statics) {
    return new BearerAuthenticator(
        statics.map(Authenticator.class::cast), jwt.map(JwtAuthenticator::new));
  }
}
