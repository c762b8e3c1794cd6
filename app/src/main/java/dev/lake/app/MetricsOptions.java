package dev.lake.app;

import dev.lake.frontdoor.MetricsEndpoint;
import dev.lake.frontdoor.TransportPolicy;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.util.Optional;
import picocli.CommandLine.Option;

/**
 * The {@code --metrics-*} flags of {@code serve}: the Prometheus scrape endpoint is off unless
 * {@code --metrics-port} names a port, and listens on a loopback address only ({@link
 * TransportPolicy#checkMetrics}: it is anonymous plaintext); a collector in the same host or task
 * scrapes it there.
 */
final class MetricsOptions {
  @Option(
      names = "--metrics-host",
      defaultValue = "127.0.0.1",
      description =
          "Loopback address of the Prometheus endpoint (default 127.0.0.1; others refused).")
  String host;

  @Option(
      names = "--metrics-port",
      defaultValue = "0",
      description = "Port of the Prometheus endpoint /metrics and /health (0 = off, the default).")
  int port;

  /** Where the endpoint listens; port 0 = off; a non-loopback host is refused when it is on. */
  record Listen(String host, int port) {
    Listen {
      java.util.Objects.requireNonNull(host, "host is null");
      if (port < 0 || port > 65_535) {
        throw new IllegalArgumentException("metricsPort must be between 0 and 65535: " + port);
      }
      if (port != 0) {
        TransportPolicy.checkMetrics(host);
      }
    }

    /** The running endpoint, or empty when it is off. */
    Optional<MetricsEndpoint> start(PrometheusMeterRegistry registry) {
      if (port == 0) {
        return Optional.empty();
      }
      return Optional.of(MetricsEndpoint.start(host, port, registry));
    }
  }

  /** The validated flags. */
  Listen listen() {
    return new Listen(host, port);
  }
}
