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

  /**
   * The metrics listener's rule: the Prometheus endpoint is anonymous plaintext, so it listens on a
   * loopback address only (a collector in the same host or task scrapes it there); there is no
   * proxy exemption, because a proxy in front would still serve it anonymously.
   */
  public static void checkMetrics(String host) {
    if (!isLoopback(host)) {
      throw new IllegalStateException(
          "Refusing to serve metrics on non-loopback address "
              + host
              + ": the Prometheus endpoint is anonymous plaintext; scrape it on 127.0.0.1 from the"
              + " same host or task (e.g. a collector sidecar), or use the CloudWatch metrics");
    }
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
