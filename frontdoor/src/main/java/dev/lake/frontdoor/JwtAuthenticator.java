package dev.lake.frontdoor;

import static java.util.Objects.requireNonNull;

import com.nimbusds.jose.JWSAlgorithm;
import com.nimbusds.jose.KeySourceException;
import com.nimbusds.jose.jwk.source.JWKSource;
import com.nimbusds.jose.jwk.source.JWKSourceBuilder;
import com.nimbusds.jose.jwk.source.RateLimitReachedException;
import com.nimbusds.jose.proc.BadJOSEException;
import com.nimbusds.jose.proc.BadJWSException;
import com.nimbusds.jose.proc.JWSVerificationKeySelector;
import com.nimbusds.jose.proc.SecurityContext;
import com.nimbusds.jose.util.DefaultResourceRetriever;
import com.nimbusds.jose.util.Resource;
import com.nimbusds.jose.util.ResourceRetriever;
import com.nimbusds.jwt.JWTClaimsSet;
import com.nimbusds.jwt.SignedJWT;
import com.nimbusds.jwt.proc.BadJWTException;
import com.nimbusds.jwt.proc.DefaultJWTClaimsVerifier;
import com.nimbusds.jwt.proc.DefaultJWTProcessor;
import dev.lake.core.ErrorCode;
import dev.lake.core.LakeException;
import dev.lake.core.Principal;
import java.io.IOException;
import java.io.InputStream;
import java.net.MalformedURLException;
import java.net.URL;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.text.ParseException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Date;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import javax.net.ssl.SSLSocketFactory;

/**
 * JWT bearer tokens from an OIDC provider ({@link JwtConfig}): the signature is checked against the
 * provider's key set with an asymmetric-only algorithm allowlist (RSA, RSA-PSS, ECDSA; {@code none}
 * and every HMAC algorithm refused, so a token "signed" with the provider's public key as an HMAC
 * secret never verifies), then {@code iss}, {@code aud}, {@code exp} (required), {@code nbf} with
 * bounded skew, {@code sub} (required). The principal is {@code sub} in the tenant of the
 * configured claim with the grants of the configured claim. No valid key known (the key set cannot
 * be fetched, holds no such key) means the token is refused: this fails closed, never open.
 */
final class JwtAuthenticator implements Authenticator {
  /** Asymmetric algorithms only; EdDSA needs an optional library lake does not ship. */
  static final Set<JWSAlgorithm> ALGORITHMS =
      Set.of(
          JWSAlgorithm.RS256,
          JWSAlgorithm.RS384,
          JWSAlgorithm.RS512,
          JWSAlgorithm.PS256,
          JWSAlgorithm.PS384,
          JWSAlgorithm.PS512,
          JWSAlgorithm.ES256,
          JWSAlgorithm.ES384,
          JWSAlgorithm.ES512);

  /** Longest accepted token; OIDC tokens are a few KiB. */
  static final int MAX_TOKEN_CHARS = 16 * 1024;

  private static final int JWKS_MAX_BYTES = 512 * 1024;
  private static final int JWKS_TIMEOUT_MILLIS = 5_000;

  private final JwtConfig config;
  private final DefaultJWTProcessor<SecurityContext> processor;

  JwtAuthenticator(JwtConfig config) {
    this(config, Optional.empty());
  }

  /** With the TLS trust for an {@code https:} key set given (tests: a self-signed provider). */
  JwtAuthenticator(JwtConfig config, Optional<SSLSocketFactory> tls) {
    this.config = requireNonNull(config, "config is null");
    requireNonNull(tls, "tls is null");
    JWKSource<SecurityContext> keys =
        JWKSourceBuilder.create(url(config), retriever(config, tls))
            .cache(config.jwksCacheTtl().toMillis(), JWKS_TIMEOUT_MILLIS)
            .rateLimited(config.jwksMinRefreshInterval().toMillis())
            .refreshAheadCache(false)
            .retrying(false)
            .outageTolerant(false) // an unreachable provider means no valid key: fail closed
            .build();
    DefaultJWTProcessor<SecurityContext> p = new DefaultJWTProcessor<>();
    p.setJWSKeySelector(new JWSVerificationKeySelector<>(ALGORITHMS, keys));
    DefaultJWTClaimsVerifier<SecurityContext> claims =
        new DefaultJWTClaimsVerifier<>(
            Set.of(config.audience()),
            new JWTClaimsSet.Builder().issuer(config.issuer()).build(),
            Set.of("sub", "exp", "iss", "aud"),
            Set.of());
    claims.setMaxClockSkew((int) config.clockSkew().toSeconds());
    p.setJWTClaimsSetVerifier(claims);
    this.processor = p;
  }

  /**
   * Whether {@code token} has the shape of a signed or unsecured JWT (three dot-separated parts).
   */
  static boolean looksLikeJwt(String token) {
    int first = token.indexOf('.');
    int second = first < 0 ? -1 : token.indexOf('.', first + 1);
    return first > 0 && second > first && token.indexOf('.', second + 1) < 0;
  }

  @Override
  public Principal resolvePrincipal(String token) {
    if (token == null || token.length() > MAX_TOKEN_CHARS || !looksLikeJwt(token)) {
      throw refused("Malformed JWT");
    }
    SignedJWT jwt;
    try {
      jwt = SignedJWT.parse(token);
    } catch (ParseException e) {
      // an unsecured ("alg":"none") token is not a SignedJWT and lands here too
      throw refused(
          token.endsWith(".")
              ? "JWT algorithm 'none' is not accepted; tokens must be signed with " + algorithms()
              : "Malformed JWT");
    }
    JWSAlgorithm alg = jwt.getHeader().getAlgorithm();
    if (!ALGORITHMS.contains(alg)) {
      throw refused(
          "JWT algorithm '"
              + alg
              + "' is not accepted; tokens must be signed with "
              + algorithms());
    }
    JWTClaimsSet claims;
    try {
      claims = processor.process(jwt, null);
    } catch (RateLimitReachedException e) {
      throw refused(unknownKey(jwt));
    } catch (KeySourceException e) {
      throw refused(
          "No valid signing key is known: the identity provider's key set is unavailable; retry"
              + " later");
    } catch (BadJWTException e) {
      throw refused(claimsReason(jwt));
    } catch (BadJWSException e) {
      throw refused("JWT signature is invalid");
    } catch (BadJOSEException e) {
      throw refused(unknownKey(jwt));
    } catch (com.nimbusds.jose.JOSEException e) {
      throw refused("JWT signature could not be checked");
    }
    return principal(claims);
  }

  private Principal principal(JWTClaimsSet claims) {
    Object tenant = claims.getClaim(config.tenantClaim());
    if (!(tenant instanceof String t) || !t.matches("[A-Za-z0-9_-]{1,64}")) {
      throw refused(
          "JWT claim '" + config.tenantClaim() + "' must hold the tenant (1-64 of [A-Za-z0-9_-])");
    }
    String subject = claims.getSubject();
    if (subject == null || subject.isBlank() || subject.length() > 256) {
      throw refused("JWT claim 'sub' must hold the principal id (1-256 characters)");
    }
    try {
      return Principal.of(t, subject, grants(claims.getClaim(config.grantsClaim())));
    } catch (LakeException | IllegalArgumentException e) {
      throw refused("JWT claim '" + config.grantsClaim() + "': " + e.getMessage());
    }
  }

  /** A list of grant strings, or one string of grants separated by spaces; absent = none. */
  private List<String> grants(Object claim) {
    List<String> out = new ArrayList<>();
    if (claim == null) {
      return out;
    }
    if (claim instanceof String s) {
      for (String g : s.trim().split("\\s+")) {
        if (!g.isEmpty()) {
          out.add(g);
        }
      }
      return out;
    }
    if (claim instanceof List<?> list && list.size() <= 1024) {
      for (Object g : list) {
        if (!(g instanceof String s)) {
          throw new IllegalArgumentException("every grant must be a string");
        }
        out.add(s);
      }
      return out;
    }
    throw new IllegalArgumentException("must be a list of grant strings (at most 1024)");
  }

  /** Why verified claims were refused, judged from the claims themselves. */
  private String claimsReason(SignedJWT jwt) {
    JWTClaimsSet claims;
    try {
      claims = jwt.getJWTClaimsSet();
    } catch (ParseException e) {
      return "Malformed JWT claims";
    }
    Instant now = Instant.now();
    long skew = config.clockSkew().toMillis();
    Date exp = claims.getExpirationTime();
    Date nbf = claims.getNotBeforeTime();
    if (!config.issuer().equals(claims.getIssuer())) {
      return "JWT issuer is not the one lake trusts (--jwt-issuer)";
    }
    if (claims.getAudience() == null || !claims.getAudience().contains(config.audience())) {
      return "JWT audience does not include lake's (--jwt-audience)";
    }
    if (exp == null) {
      return "JWT has no expiry (exp)";
    }
    if (exp.toInstant().toEpochMilli() + skew <= now.toEpochMilli()) {
      return "JWT expired at " + exp.toInstant();
    }
    if (nbf != null && nbf.toInstant().toEpochMilli() - skew > now.toEpochMilli()) {
      return "JWT is not valid before " + nbf.toInstant();
    }
    if (claims.getSubject() == null) {
      return "JWT has no subject (sub)";
    }
    return "JWT claims were refused";
  }

  private static String unknownKey(SignedJWT jwt) {
    String kid = jwt.getHeader().getKeyID();
    return "JWT is signed by a key the identity provider's key set does not hold"
        + (kid == null ? " (no kid)" : " (kid " + printable(kid) + ")");
  }

  /** {@code kid} as the message may show it: at most 64 printable ASCII characters. */
  private static String printable(String kid) {
    String s = kid.length() > 64 ? kid.substring(0, 64) + "…" : kid;
    return s.replaceAll("[^\\x20-\\x7e…]", "?");
  }

  private static String algorithms() {
    return "RS256/384/512, PS256/384/512 or ES256/384/512";
  }

  private static LakeException refused(String reason) {
    return new LakeException(ErrorCode.UNAUTHENTICATED, reason);
  }

  private static URL url(JwtConfig config) {
    try {
      return config.jwksUrl().toURL();
    } catch (MalformedURLException | IllegalArgumentException e) {
      throw new IllegalArgumentException("--jwt-jwks-url is not a URL: " + config.jwksUrl(), e);
    }
  }

  private static ResourceRetriever retriever(JwtConfig config, Optional<SSLSocketFactory> tls) {
    if ("file".equalsIgnoreCase(config.jwksUrl().getScheme())) {
      Path file = Path.of(config.jwksUrl());
      return url -> new Resource(readBounded(file), "application/json");
    }
    return new DefaultResourceRetriever(
        JWKS_TIMEOUT_MILLIS, JWKS_TIMEOUT_MILLIS, JWKS_MAX_BYTES, true, tls.orElse(null));
  }

  private static String readBounded(Path file) throws IOException {
    try (InputStream in = Files.newInputStream(file)) {
      byte[] bytes = in.readNBytes(JWKS_MAX_BYTES + 1);
      if (bytes.length > JWKS_MAX_BYTES) {
        throw new IOException("key set file " + file + " is larger than " + JWKS_MAX_BYTES);
      }
      return new String(bytes, StandardCharsets.UTF_8);
    }
  }
}
