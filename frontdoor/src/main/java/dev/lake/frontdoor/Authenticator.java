package dev.lake.frontdoor;

import dev.lake.core.Principal;

/**
 * Turns the bearer token a call presents into the principal it authenticates (a port: hashed static
 * tokens, JWTs from an OIDC provider, or both). Implementations are thread-safe and never trust the
 * token's own claims before its proof (hash or signature) checked out.
 */
public interface Authenticator {
  /**
   * The principal {@code token} authenticates.
   *
   * @throws dev.lake.core.LakeException {@code UNAUTHENTICATED} with a client-safe reason (unknown,
   *     expired, wrong audience …) that never echoes the token
   */
  Principal resolvePrincipal(String token);
}
