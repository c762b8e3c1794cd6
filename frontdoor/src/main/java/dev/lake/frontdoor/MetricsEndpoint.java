package dev.lake.frontdoor;

import static java.util.Objects.requireNonNull;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

/**
 * The Prometheus scrape endpoint on its own port, apart from Flight: {@code GET /metrics} answers
 * the registry's text exposition, {@code GET /health} answers {@code ok}. One daemon thread serves
 * it; anything else gets 404 or 405.
 */
public final class MetricsEndpoint implements AutoCloseable {
  static final String CONTENT_TYPE = "text/plain; version=0.0.4; charset=utf-8";

  private final HttpServer server;
  private final ExecutorService executor;

  private MetricsEndpoint(HttpServer server, ExecutorService executor) {
    this.server = server;
    this.executor = executor;
  }

  public static MetricsEndpoint start(String host, int port, PrometheusMeterRegistry registry) {
    requireNonNull(host, "host is null");
    requireNonNull(registry, "registry is null");
    if (port < 0 || port > 65535) {
      throw new IllegalArgumentException("metrics port must be between 0 and 65535: " + port);
    }
    HttpServer server;
    try {
      server = HttpServer.create(new InetSocketAddress(host, port), 16);
    } catch (IOException e) {
      throw new UncheckedIOException(
          "cannot listen for metrics on " + host + ":" + port + ": " + e.getMessage(), e);
    }
    server.createContext("/metrics", ex -> answer(ex, 200, CONTENT_TYPE, registry.scrape()));
    server.createContext("/health", ex -> answer(ex, 200, "text/plain", "ok\n"));
    server.createContext("/", ex -> answer(ex, 404, "text/plain", "not found\n"));
    ExecutorService executor =
        Executors.newSingleThreadExecutor(
            r -> {
              Thread t = new Thread(r, "lake-metrics");
              t.setDaemon(true);
              return t;
            });
    server.setExecutor(executor);
    server.start();
    return new MetricsEndpoint(server, executor);
  }

  int port() {
    return server.getAddress().getPort();
  }

  private static void answer(HttpExchange ex, int status, String type, String body)
      throws IOException {
    try (ex) {
      if (!"GET".equals(ex.getRequestMethod())) {
        ex.sendResponseHeaders(405, -1);
        return;
      }
      byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
      ex.getResponseHeaders().set("Content-Type", type);
      ex.sendResponseHeaders(status, bytes.length);
      try (OutputStream out = ex.getResponseBody()) {
        out.write(bytes);
      }
    }
  }

  @Override
  public void close() {
    server.stop(0);
    executor.shutdownNow();
  }
}
