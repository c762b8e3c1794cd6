package dev.lake.frontdoor;

import java.net.InetAddress;
import java.net.UnknownHostException;

/**
 * The listener rule: plaintext is allowed only on a loopback address, unless the deployment
 * declares a trusted TLS-terminating proxy. Anything else refuses to start.
 */
public final class TransportPolicy {
  private TransportPolicy() {}

  /** Throws {@link IllegalStateException} with an actionable message when the rule is broken. */
  public static void check(FrontDoorConfig config) {
    if (config.tlsEnabled() || config.trustedTlsProxy() || isLoopback(config.host())) {
      return;
    }
    throw new IllegalStateException(
        "Refusing to listen in plaintext on non-loopback address "
            + config.host()
            + ": configure --tls-cert and --tls-key, or declare a trusted TLS-terminating proxy"
            + " with --trusted-tls-proxy");
  }

  /** Whether every address {@code host} resolves to is a loopback address. */
  static boolean isLoopback(String host) {
    try {
      InetAddress[] all = InetAddress.getAllByName(host);
      for (InetAddress a : all) {
        if (!a.isLoopbackAddress()) {
          return false;
        }
      }
      return all.length > 0;
    } catch (UnknownHostException e) {
      return false;
    }
  }
}
