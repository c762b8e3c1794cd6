package dev.lake.frontdoor;

import static java.util.Objects.requireNonNull;

import dev.lake.core.Bounds;
import java.net.URI;
import java.time.Duration;
import java.util.Locale;

/**
 * JWT bearer identities from an OIDC provider, validated once at construction.
 *
 * @param jwksUrl the provider's JSON Web Key Set: {@code https:} (fetched, cached, refetched when a
 *     token names an unknown key id) or {@code file:} (a key set on this machine); nothing else
 * @param issuer the exact {@code iss} every token must carry (required)
 * @param audience a value the token's {@code aud} must contain (required)
 * @param tenantClaim the claim holding the tenant (default {@code tenant})
 * @param grantsClaim the claim holding the grants: a list of grant strings, or one string of grants
 *     separated by spaces (default {@code lake_grants}); absent = no grants
 * @param clockSkew tolerance on {@code exp} and {@code nbf} (default 60 s, 0 - 5 min)
 * @param jwksCacheTtl how long a fetched key set is used before it is fetched again (default 5 min,
 *     1 s - 1 d)
 * @param jwksMinRefreshInterval least time between two fetches, however many unknown key ids arrive
 *     (default 30 s, 100 ms - 1 h)
 */
public record JwtConfig(
    URI jwksUrl,
    String issuer,
    String audience,
    String tenantClaim,
    String grantsClaim,
    Duration clockSkew,
    Duration jwksCacheTtl,
    Duration jwksMinRefreshInterval) {
  public static final String DEFAULT_TENANT_CLAIM = "tenant";
  public static final String DEFAULT_GRANTS_CLAIM = "lake_grants";
  public static final Duration DEFAULT_CLOCK_SKEW = Duration.ofSeconds(60);
  public static final Duration MAX_CLOCK_SKEW = Duration.ofMinutes(5);
  public static final Duration DEFAULT_JWKS_CACHE_TTL = Duration.ofMinutes(5);
  public static final Duration DEFAULT_JWKS_MIN_REFRESH_INTERVAL = Duration.ofSeconds(30);

  public JwtConfig {
    requireNonNull(jwksUrl, "jwksUrl is null");
    requireNonNull(issuer, "issuer is null");
    requireNonNull(audience, "audience is null");
    requireNonNull(tenantClaim, "tenantClaim is null");
    requireNonNull(grantsClaim, "grantsClaim is null");
    requireNonNull(clockSkew, "clockSkew is null");
    requireNonNull(jwksCacheTtl, "jwksCacheTtl is null");
    requireNonNull(jwksMinRefreshInterval, "jwksMinRefreshInterval is null");
    String scheme = jwksUrl.getScheme() == null ? "" : jwksUrl.getScheme().toLowerCase(Locale.ROOT);
    if (!scheme.equals("https") && !scheme.equals("file")) {
      throw new IllegalArgumentException(
          "--jwt-jwks-url must be an https: URL (or file: for a key set on this machine): "
              + jwksUrl);
    }
    if (issuer.isBlank()) {
      throw new IllegalArgumentException("--jwt-issuer is required with --jwt-jwks-url");
    }
    if (audience.isBlank()) {
      throw new IllegalArgumentException("--jwt-audience is required with --jwt-jwks-url");
    }
    claimName("--jwt-tenant-claim", tenantClaim);
    claimName("--jwt-grants-claim", grantsClaim);
    Bounds.check("--jwt-clock-skew", clockSkew, Duration.ZERO, MAX_CLOCK_SKEW);
    Bounds.check("--jwt-jwks-cache-ttl", jwksCacheTtl, Duration.ofSeconds(1), Duration.ofDays(1));
    Bounds.check(
        "--jwt-jwks-min-refresh-interval",
        jwksMinRefreshInterval,
        Duration.ofMillis(100),
        Duration.ofHours(1));
  }

  /** The defaults for everything but the provider's key set, issuer and audience. */
  public static JwtConfig of(URI jwksUrl, String issuer, String audience) {
    return new JwtConfig(
        jwksUrl,
        issuer,
        audience,
        DEFAULT_TENANT_CLAIM,
        DEFAULT_GRANTS_CLAIM,
        DEFAULT_CLOCK_SKEW,
        DEFAULT_JWKS_CACHE_TTL,
        DEFAULT_JWKS_MIN_REFRESH_INTERVAL);
  }

  JwtConfig withKeySetTiming(Duration cacheTtl, Duration minRefreshInterval) {
    return new JwtConfig(
        jwksUrl,
        issuer,
        audience,
        tenantClaim,
        grantsClaim,
        clockSkew,
        cacheTtl,
        minRefreshInterval);
  }

  private static void claimName(String flag, String name) {
    if (name.isBlank() || name.length() > 128) {
      throw new IllegalArgumentException(flag + " must name a claim of 1-128 characters: " + name);
    }
  }
}
