package dev.lake.frontdoor;

import static java.util.Objects.requireNonNull;

import dev.lake.core.ErrorCode;
import dev.lake.core.LakeException;
import dev.lake.core.Principal;
import java.util.Optional;

/**
 * The deployment's authenticators side by side: a token shaped like a JWT goes to the JWT
 * authenticator when one is configured, every other token to the static principals (hashed tokens).
 * With neither able to judge a token, it is unknown. At least one must be configured.
 */
final class BearerAuthenticator implements Authenticator {
  private final Optional<Authenticator> statics;
  private final Optional<Authenticator> jwt;

  BearerAuthenticator(Optional<Authenticator> statics, Optional<Authenticator> jwt) {
    this.statics = requireNonNull(statics, "statics is null");
    this.jwt = requireNonNull(jwt, "jwt is null");
    if (statics.isEmpty() && jwt.isEmpty()) {
      throw new IllegalArgumentException(
          "configure --principals-file or --principals-secret, --jwt-jwks-url, or both: lake"
              + " admits nobody otherwise");
    }
  }

  @Override
  public Principal resolvePrincipal(String token) {
    if (jwt.isPresent() && JwtAuthenticator.looksLikeJwt(token)) {
      return jwt.get().resolvePrincipal(token);
    }
    return statics
        .orElseThrow(() -> new LakeException(ErrorCode.UNAUTHENTICATED, "Unknown bearer token"))
        .resolvePrincipal(token);
  }
}
