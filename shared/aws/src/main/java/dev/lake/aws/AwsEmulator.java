package dev.lake.aws;

import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.net.HttpURLConnection;
import java.net.ServerSocket;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

/**
 * An AWS emulator for development and tests: the one named by {@code LAKE_TEST_AWS_ENDPOINT} (moto
 * or LocalStack started by someone else, left running on close), or a {@code moto_server} child
 * process on a free loopback port (stopped on close). moto is found on {@code PATH} or under
 * pyenv's shims.
 *
 * <p>The moto child runs with lake's {@code sitecustomize.py} on {@code PYTHONPATH}, which makes
 * moto's DynamoDB linearizable as the real service is (moto's TransactWriteItems is not atomic
 * under concurrent requests: a failed transaction restores a stale copy of the table). The file
 * says why.
 */
public final class AwsEmulator implements AutoCloseable {
  /** The variable naming an already running emulator. */
  public static final String ENDPOINT_VARIABLE = "LAKE_TEST_AWS_ENDPOINT";

  private final URI endpoint;
  private final Optional<Process> process;

  private AwsEmulator(URI endpoint, Optional<Process> process) {
    this.endpoint = endpoint;
    this.process = process;
  }

  /** The configured emulator if {@code LAKE_TEST_AWS_ENDPOINT} is set, else a new moto_server. */
  public static AwsEmulator start(Path log) {
    return start(log, 0);
  }

  /** As {@link #start(Path)}; a moto_server it starts listens on {@code port} (0 = any). */
  public static AwsEmulator start(Path log, int port) {
    String configured = System.getenv(ENDPOINT_VARIABLE);
    if (configured != null && !configured.isBlank()) {
      return external(URI.create(configured.trim()));
    }
    return startMoto(log, port);
  }

  /** An emulator someone else runs at {@code endpoint} (left running on close). */
  public static AwsEmulator external(URI endpoint) {
    awaitUp(endpoint, Duration.ofSeconds(10), null);
    return new AwsEmulator(endpoint, Optional.empty());
  }

  /** A new moto_server on a free loopback port, its output in {@code log}. */
  public static AwsEmulator startMoto(Path log) {
    return startMoto(log, 0);
  }

  /**
   * A new moto_server on loopback {@code port} (0 = any free port), logging to {@code log}. It runs
   * in a session of its own where {@code setsid} exists, so a terminal's Ctrl-C reaches only the
   * process that started it, which stops it last (after the processes that use it).
   */
  public static AwsEmulator startMoto(Path log, int port) {
    String binary = findMoto();
    try {
      if (port == 0) {
        try (ServerSocket socket = new ServerSocket(0)) {
          port = socket.getLocalPort();
        }
      }
      List<String> command = new ArrayList<>();
      findOnPath("setsid").ifPresent(command::add);
      command.addAll(List.of(binary, "-H", "127.0.0.1", "-p", Integer.toString(port)));
      ProcessBuilder builder =
          new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(log.toFile());
      String pythonPath = serializingSiteDirectory().toString();
      String inherited = builder.environment().get("PYTHONPATH");
      builder
          .environment()
          .put(
              "PYTHONPATH",
              inherited == null || inherited.isBlank()
                  ? pythonPath
                  : pythonPath + File.pathSeparator + inherited);
      Process p = builder.start();
      URI uri = URI.create("http://127.0.0.1:" + port);
      awaitUp(uri, Duration.ofSeconds(30), p);
      return new AwsEmulator(uri, Optional.of(p));
    } catch (IOException e) {
      throw new IllegalStateException("cannot start moto_server (" + binary + ")", e);
    }
  }

  /** A fresh directory holding lake's {@code sitecustomize.py} for the moto child. */
  static Path serializingSiteDirectory() throws IOException {
    Path dir = Files.createTempDirectory("lake-moto-site-");
    try (InputStream in = AwsEmulator.class.getResourceAsStream("moto/sitecustomize.py")) {
      if (in == null) {
        throw new IllegalStateException("dev/lake/aws/moto/sitecustomize.py missing from lake-aws");
      }
      Files.copy(in, dir.resolve("sitecustomize.py"));
    }
    dir.resolve("sitecustomize.py").toFile().deleteOnExit();
    dir.toFile().deleteOnExit();
    return dir;
  }

  public URI endpoint() {
    return endpoint;
  }

  /** Whether this emulator is a process we started (and stop on close). */
  public boolean owned() {
    return process.isPresent();
  }

  private static Optional<String> findOnPath(String name) {
    String path = System.getenv().getOrDefault("PATH", "");
    for (String dir : path.split(File.pathSeparator)) {
      File f = new File(dir, name);
      if (f.canExecute()) {
        return Optional.of(f.getAbsolutePath());
      }
    }
    return Optional.empty();
  }

  static String findMoto() {
    Optional<String> onPath = findOnPath("moto_server");
    if (onPath.isPresent()) {
      return onPath.get();
    }
    for (File shim :
        new File[] {
          new File(System.getProperty("user.home"), ".pyenv/shims/moto_server"),
          new File("/root/.pyenv/shims/moto_server")
        }) {
      if (shim.canExecute()) {
        return shim.getAbsolutePath();
      }
    }
    throw new IllegalStateException(
        "No AWS emulator: install moto (pip install 'moto[server]') so moto_server is on PATH,"
            + " or set "
            + ENDPOINT_VARIABLE
            + " to a running moto/LocalStack endpoint"
            + (Boolean.parseBoolean(System.getenv("CI"))
                ? " (CI=true: failing, not skipping)"
                : ""));
  }

  /** Polls the emulator until it answers, for at most {@code max}; fails if {@code p} exits. */
  static void awaitUp(URI uri, Duration max, Process p) {
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
        TimeUnit.MILLISECONDS.sleep(50); // polling with a deadline, not synchronization
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
  public void close() {
    process.ifPresent(
        p -> {
          p.destroy();
          try {
            if (!p.waitFor(5, TimeUnit.SECONDS)) {
              p.destroyForcibly();
            }
          } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            p.destroyForcibly();
          }
        });
  }
}
