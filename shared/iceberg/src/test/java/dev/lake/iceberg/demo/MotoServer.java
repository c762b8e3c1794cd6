package dev.lake.iceberg.demo;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * An S3 endpoint for tests: {@code LAKE_TEST_AWS_ENDPOINT} if set, else a {@code moto_server}
 * subprocess on a free loopback port. If neither works the test FAILS (never skips), in CI or not.
 */
final class MotoServer implements BeforeAllCallback, AfterAllCallback {
  private static final List<String> CANDIDATES =
      List.of("moto_server", "/root/.pyenv/shims/moto_server");

  private Process process;
  private URI endpoint;

  URI endpoint() {
    return endpoint;
  }

  @Override
  public void beforeAll(ExtensionContext context) throws Exception {
    String given = System.getenv("LAKE_TEST_AWS_ENDPOINT");
    if (given != null && !given.isBlank()) {
      endpoint = URI.create(given);
      return;
    }
    int port;
    try (ServerSocket s = new ServerSocket(0, 1, java.net.InetAddress.getLoopbackAddress())) {
      port = s.getLocalPort();
    }
    Path log = Files.createTempFile("moto", ".log");
    IOException last = null;
    for (String exe : CANDIDATES) {
      try {
        process =
            new ProcessBuilder(exe, "-H", "127.0.0.1", "-p", Integer.toString(port))
                .redirectErrorStream(true)
                .redirectOutput(log.toFile())
                .start();
        break;
      } catch (IOException e) {
        last = e;
      }
    }
    if (process == null) {
      throw new IllegalStateException("moto_server could not be started (is it installed?)", last);
    }
    long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
    while (System.nanoTime() < deadline) {
      if (!process.isAlive()) {
        throw new IllegalStateException(
            "moto_server exited: " + Files.readString(log).lines().limit(20).toList());
      }
      try (Socket s = new Socket()) {
        s.connect(new InetSocketAddress("127.0.0.1", port), 200);
        endpoint = URI.create("http://127.0.0.1:" + port);
        return;
      } catch (IOException e) {
        Thread.sleep(100);
      }
    }
    process.destroyForcibly();
    throw new IllegalStateException("moto_server did not listen on port " + port + " within 30 s");
  }

  @Override
  public void afterAll(ExtensionContext context) throws Exception {
    if (process != null) {
      process.destroy();
      if (!process.waitFor(5, java.util.concurrent.TimeUnit.SECONDS)) {
        process.destroyForcibly();
      }
    }
  }
}
