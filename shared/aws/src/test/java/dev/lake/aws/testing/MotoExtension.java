package dev.lake.aws.testing;

import dev.lake.aws.AwsEmulator;
import java.io.IOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
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

  /** AWS settings reaching only the emulator, naming no durable resource (for AWS clients). */
  public static dev.lake.aws.AwsConfig clientsConfig() {
    return new dev.lake.aws.AwsConfig(
        "us-east-1",
        java.util.Optional.of(endpoint()),
        "-",
        "-",
        "-",
        "-",
        dev.lake.aws.AwsConfig.DEFAULT_CALL_TIMEOUT);
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
    private final AwsEmulator emulator;
    private final AutoCloseable container;

    private Server(URI endpoint, AwsEmulator emulator, AutoCloseable container) {
      this.endpoint = endpoint;
      this.emulator = emulator;
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
      String configured = System.getenv(AwsEmulator.ENDPOINT_VARIABLE);
      if ((configured == null || configured.isBlank())
          && !"moto".equalsIgnoreCase(System.getenv("LAKE_TEST_AWS"))
          && dockerEngineReachable()) {
        LocalStackEmulator localStack = LocalStackEmulator.start();
        return new Server(localStack.endpoint(), null, localStack);
      }
      try {
        AwsEmulator emulator = AwsEmulator.start(Files.createTempFile("moto-", ".log"));
        return new Server(emulator.endpoint(), emulator, null);
      } catch (IOException e) {
        throw new IllegalStateException("cannot create the emulator log", e);
      }
    }

    @Override
    public void close() throws Exception {
      if (container != null) {
        container.close();
      }
      if (emulator != null) {
        emulator.close();
      }
    }
  }
}
