package dev.lake.frontdoor;

import static java.util.Objects.requireNonNull;

import dev.lake.core.ErrorCode;
import dev.lake.core.LakeException;
import dev.lake.core.Principal;
import org.apache.arrow.flight.CallHeaders;
import org.apache.arrow.flight.CallInfo;
import org.apache.arrow.flight.CallStatus;
import org.apache.arrow.flight.FlightProducer.CallContext;
import org.apache.arrow.flight.FlightServerMiddleware;
import org.apache.arrow.flight.RequestContext;

/**
 * Bearer authentication on every Flight RPC, Handshake included: the middleware factory runs before
 * any method and rejects a call without a valid token (static or JWT, {@link Authenticator}) with
 * UNAUTHENTICATED, so no producer code ever runs unauthenticated. The authenticated principal rides
 * on the call for the producer.
 */
final class AuthMiddleware implements FlightServerMiddleware {
  static final Key<AuthMiddleware> KEY = Key.of("lake.auth");
  private static final String BEARER = "bearer ";

  private final Principal principal;

  private AuthMiddleware(Principal principal) {
    this.principal = principal;
  }

  Principal principal() {
    return principal;
  }

  /** The principal of the current call; the middleware guarantees there is one. */
  static Principal principal(CallContext context) {
    AuthMiddleware m = context.getMiddleware(KEY);
    if (m == null) {
      throw new LakeException(ErrorCode.UNAUTHENTICATED, "Missing bearer token");
    }
    return m.principal;
  }

  @Override
  public void onBeforeSendingHeaders(CallHeaders outgoingHeaders) {}

  @Override
  public void onCallCompleted(CallStatus status) {}

  @Override
  public void onCallErrored(Throwable err) {}

  /** Authenticates each call from its {@code authorization: Bearer <token>} header. */
  static final class Factory implements FlightServerMiddleware.Factory<AuthMiddleware> {
    private final Authenticator authenticator;

    Factory(Authenticator authenticator) {
      this.authenticator = requireNonNull(authenticator, "authenticator is null");
    }

    @Override
    public AuthMiddleware onCallStarted(
        CallInfo info, CallHeaders incomingHeaders, RequestContext context) {
      String header = incomingHeaders.get("authorization");
      if (header == null
          || header.length() <= BEARER.length()
          || !header.regionMatches(true, 0, BEARER, 0, BEARER.length())) {
        throw FlightErrors.error(
            ErrorCode.UNAUTHENTICATED,
            "Missing bearer token: send 'authorization: Bearer <token>'");
      }
      String token = header.substring(BEARER.length()).trim();
      try {
        return new AuthMiddleware(authenticator.resolvePrincipal(token));
      } catch (LakeException e) {
        throw FlightErrors.error(ErrorCode.UNAUTHENTICATED, e.getMessage());
      }
    }
  }
}
