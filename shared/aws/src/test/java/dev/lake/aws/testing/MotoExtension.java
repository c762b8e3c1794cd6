package dev.lake.aws.testing;

import java.io.File;
import java.io.IOException;
import java.net.HttpURLConnection;
import java.net.ServerSocket;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * Provides an AWS emulator endpoint to a test class, in this order: {@code LAKE_TEST_AWS_ENDPOINT}
 * if set (moto or LocalStack you started yourself, e.g. with {@code localstack/start-moto.sh});
 * LocalStack in Docker through Testcontainers when a Docker engine is reachable (unless {@code
 * LAKE_TEST_AWS=moto}); otherwise one {@code moto_server} per test JVM on a free loopback port,
 * started on first use and stopped when the JVM's tests finish. If none is possible the test FAILS
 * (in CI and locally alike): AWS adapter tests never silently skip.
 *
 * <p>Use with {@code @ExtendWith(MotoExtension.class)} and {@link #endpoint()}.
 */
public final class MotoExtension implements BeforeAllCallback {
  private static final ExtensionContext.Namespace NS =
      ExtensionContext.Namespace.create(MotoExtension.class);
  private static volatile URI endpoint;

  /** The emulator endpoint; valid once the extension ran for the test class. */
  public static URI endpoint() {
    if (endpoint == null) {
      throw new IllegalStateException("annotate the test class with @ExtendWith(MotoExtension)");
    }
    return endpoint;
  }

  @Override
  public void beforeAll(ExtensionContext context) {
    Server server =
        context
            .getRoot()
            .getStore(NS)
            .getOrComputeIfAbsent("server", k -> Server.start(), Server.class);
    endpoint = server.endpoint;
  }

  /** The running emulator; closed by JUnit when the root context closes. */
  static final class Server implements ExtensionContext.Store.CloseableResource {
    final URI endpoint;
    private final Process process;
    private final AutoCloseable container;

    private Server(URI endpoint, Process process) {
      this(endpoint, process, null);
    }

    private Server(URI endpoint, Process process, AutoCloseable container) {
      this.endpoint = endpoint;
      this.process = process;
      this.container = container;
    }

    /**
     * Whether a Docker engine answers here: a reachable Unix socket named by {@code DOCKER_HOST} or
     * the default one. A Docker client without an engine (as on CI machines here) is not enough.
     */
    static boolean dockerEngineReachable() {
      String host = System.getenv().getOrDefault("DOCKER_HOST", "unix:///var/run/docker.sock");
      if (!host.startsWith("unix://")) {
        return !host.isBlank();
      }
      Path socket = Path.of(host.substring("unix://".length()));
      if (!Files.exists(socket)) {
        return false;
      }
      try (java.nio.channels.SocketChannel channel =
          java.nio.channels.SocketChannel.open(java.net.StandardProtocolFamily.UNIX)) {
        return channel.connect(java.net.UnixDomainSocketAddress.of(socket));
      } catch (IOException | RuntimeException e) {
        return false;
      }
    }

    static Server start() {
      String configured = System.getenv("LAKE_TEST_AWS_ENDPOINT");
      if (configured != null && !configured.isBlank()) {
        URI uri = URI.create(configured);
        awaitUp(uri, Duration.ofSeconds(10), null);
        return new Server(uri, null);
      }
      if (!"moto".equalsIgnoreCase(System.getenv("LAKE_TEST_AWS")) && dockerEngineReachable()) {
        LocalStackEmulator localStack = LocalStackEmulator.start();
        return new Server(localStack.endpoint(), null, localStack);
      }
      String binary = findMoto();
      try {
        int port;
        try (ServerSocket socket = new ServerSocket(0)) {
          port = socket.getLocalPort();
        }
        Path log = Files.createTempFile("moto-", ".log");
        Process p =
            new ProcessBuilder(binary, "-H", "127.0.0.1", "-p", Integer.toString(port))
                .redirectErrorStream(true)
                .redirectOutput(log.toFile())
                .start();
        URI uri = URI.create("http://127.0.0.1:" + port);
        awaitUp(uri, Duration.ofSeconds(30), p);
        return new Server(uri, p);
      } catch (IOException e) {
        throw new IllegalStateException("cannot start moto_server (" + binary + ")", e);
      }
    }

    private static String findMoto() {
      String path = System.getenv().getOrDefault("PATH", "");
      for (String dir : path.split(File.pathSeparator)) {
        File f = new File(dir, "moto_server");
        if (f.canExecute()) {
          return f.getAbsolutePath();
        }
      }
      File shim = new File(System.getProperty("user.home"), ".pyenv/shims/moto_server");
      if (shim.canExecute()) {
        return shim.getAbsolutePath();
      }
      File root = new File("/root/.pyenv/shims/moto_server");
      if (root.canExecute()) {
        return root.getAbsolutePath();
      }
      throw new IllegalStateException(
          "No AWS emulator: install moto (pip install 'moto[server]') so moto_server is on PATH,"
              + " or set LAKE_TEST_AWS_ENDPOINT to a running moto/LocalStack endpoint"
              + (Boolean.parseBoolean(System.getenv("CI"))
                  ? " (CI=true: failing, not skipping)"
                  : ""));
    }

    private static void awaitUp(URI uri, Duration max, Process p) {
      long deadline = System.nanoTime() + max.toNanos();
      while (System.nanoTime() < deadline) {
        if (p != null && !p.isAlive()) {
          throw new IllegalStateException("moto_server exited with " + p.exitValue());
        }
        try {
          HttpURLConnection c =
              (HttpURLConnection) uri.resolve("/moto-api/data.json").toURL().openConnection();
          c.setConnectTimeout(500);
          c.setReadTimeout(2000);
          int code = c.getResponseCode();
          c.disconnect();
          if (code > 0) {
            return;
          }
        } catch (IOException e) {
          // not up yet
        }
        try {
          Thread.sleep(50);
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
          break;
        }
      }
      if (p != null) {
        p.destroyForcibly();
      }
      throw new IllegalStateException("AWS emulator at " + uri + " did not answer within " + max);
    }

    @Override
    public void close() throws Exception {
      if (container != null) {
        container.close();
      }
      if (process != null) {
        process.destroy();
        if (!process.waitFor(5, java.util.concurrent.TimeUnit.SECONDS)) {
          process.destroyForcibly();
        }
      }
    }
  }
}
