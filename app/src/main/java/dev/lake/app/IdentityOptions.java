package dev.lake.app;

import dev.lake.frontdoor.IdentityConfig;
import dev.lake.frontdoor.JwtConfig;
import java.net.URI;
import java.time.Duration;
import java.util.Optional;
import picocli.CommandLine.Option;

/**
 * The identity flags of {@code serve} and {@code local} (each also {@code LAKE_*}): JWT bearer
 * identities from an OIDC provider beside the principals file, and how often that file is checked
 * for a change. Validated by {@link IdentityConfig} and {@link JwtConfig}.
 */
public final class IdentityOptions {
  @Option(
      names = "--jwt-jwks-url",
      description =
          "The OIDC provider's JSON Web Key Set (https:, or file: for a key set on this machine);"
              + " turns JWT bearer tokens on.")
  URI jwksUrl;

  @Option(names = "--jwt-issuer", description = "The exact iss of accepted JWTs (required).")
  String issuer;

  @Option(
      names = "--jwt-audience",
      description = "A value the aud of accepted JWTs must hold (required).")
  String audience;

  @Option(
      names = "--jwt-tenant-claim",
      description = "The claim holding the tenant (default ${DEFAULT-VALUE}).")
  String tenantClaim = JwtConfig.DEFAULT_TENANT_CLAIM;

  @Option(
      names = "--jwt-grants-claim",
      description =
          "The claim holding the grants: a list, or one space-separated string (default"
              + " ${DEFAULT-VALUE}).")
  String grantsClaim = JwtConfig.DEFAULT_GRANTS_CLAIM;

  @Option(
      names = "--jwt-clock-skew",
      description = "Tolerance on exp and nbf (ISO-8601, default ${DEFAULT-VALUE}, at most PT5M).")
  Duration clockSkew = JwtConfig.DEFAULT_CLOCK_SKEW;

  @Option(
      names = "--jwt-jwks-cache-ttl",
      description = "How long a fetched key set is used (ISO-8601, default ${DEFAULT-VALUE}).")
  Duration jwksCacheTtl = JwtConfig.DEFAULT_JWKS_CACHE_TTL;

  @Option(
      names = "--jwt-jwks-min-refresh-interval",
      description =
          "Least time between two key-set fetches, however many unknown key ids arrive (ISO-8601,"
              + " default ${DEFAULT-VALUE}).")
  Duration jwksMinRefreshInterval = JwtConfig.DEFAULT_JWKS_MIN_REFRESH_INTERVAL;

  @Option(
      names = "--principals-reload-interval",
      description =
          "How often the principals file or secret is checked for a new version (ISO-8601, default"
              + " ${DEFAULT-VALUE}, PT1S - PT1H).")
  Duration principalsReloadInterval = IdentityConfig.DEFAULT_PRINCIPALS_RELOAD_INTERVAL;

  /** The identity configuration of these flags; a bad or missing companion value throws. */
  public IdentityConfig config() {
    Optional<JwtConfig> jwt = Optional.empty();
    if (jwksUrl != null) {
      jwt =
          Optional.of(
              new JwtConfig(
                  jwksUrl,
                  issuer == null ? "" : issuer,
                  audience == null ? "" : audience,
                  tenantClaim,
                  grantsClaim,
                  clockSkew,
                  jwksCacheTtl,
                  jwksMinRefreshInterval));
    } else if (issuer != null || audience != null) {
      throw new IllegalArgumentException(
          "--jwt-issuer and --jwt-audience need --jwt-jwks-url (LAKE_JWT_JWKS_URL)");
    }
    return new IdentityConfig(jwt, principalsReloadInterval);
  }
}
