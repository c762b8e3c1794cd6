package dev.lake.iceberg.demo;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.BindException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.Callable;
import org.apache.iceberg.catalog.TableIdentifier;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code bin/lake iceberg-demo}: starts Iceberg's REST catalog fixture on loopback with the demo
 * tables and prints its URI. Exit codes: 0 (also for {@code --help}), 1 it could not start (one
 * line, e.g. a taken port), 2 a usage error.
 *
 * <pre>
 * bin/lake iceberg-demo [--port 8181] [--dir /tmp/lake-iceberg-demo]
 * bin/lake local --iceberg-rest http://127.0.0.1:8181 --iceberg-allow demo
 * </pre>
 */
@Command(
    name = "lake iceberg-demo",
    mixinStandardHelpOptions = true,
    description =
        "Run the Iceberg project's REST catalog on loopback with demo tables (iceberg.demo.nation,"
            + " iceberg.demo.region), for bin/lake local --iceberg-rest.")
public final class IcebergDemoServer implements Callable<Integer> {
  @Spec CommandSpec spec;

  /**
   * Library lines a person running the demo does not need (bin/lake's {@code --verbose} sets {@code
   * lake.verbose} and shows them): Hadoop's notice that it uses its Java code instead of a native
   * library, and the catalog servlet's stack trace for every lookup of a table that does not exist
   * (an ordinary 404 for the client, which gets the error itself).
   */
  private static final Map<String, String> QUIET_LOGGERS =
      Map.of(
          "org.apache.hadoop.util.NativeCodeLoader", "error",
          "org.apache.iceberg.rest.RESTCatalogServlet", "off");

  @Option(
      names = "--port",
      defaultValue = "8181",
      description = "Loopback port (0 = any free port; default ${DEFAULT-VALUE}).")
  int port;

  @Option(
      names = "--dir",
      description = "Catalog state and warehouse directory (default: a new temporary directory).")
  Path dir;

  public static void main(String[] args) {
    quietLogging(Boolean.getBoolean("lake.verbose"));
    System.exit(commandLine().execute(args));
  }

  /** The command line with one-line errors: exit 2 for usage, 1 when it cannot start. */
  static CommandLine commandLine() {
    CommandLine cli = new CommandLine(new IcebergDemoServer());
    cli.setParameterExceptionHandler(
        (ex, given) -> {
          ex.getCommandLine().getErr().println("lake iceberg-demo: " + ex.getMessage());
          ex.getCommandLine().getErr().println("Try 'bin/lake iceberg-demo --help'.");
          return CommandLine.ExitCode.USAGE;
        });
    cli.setExecutionExceptionHandler(
        (ex, cmd, parsed) -> {
          cmd.getErr().println("lake iceberg-demo: " + ex.getMessage());
          return CommandLine.ExitCode.SOFTWARE;
        });
    return cli;
  }

  /** Sets the quiet loggers' levels unless {@code verbose}; before any logger exists. */
  static void quietLogging(boolean verbose) {
    if (!verbose) {
      QUIET_LOGGERS.forEach(
          (logger, level) -> System.setProperty("org.slf4j.simpleLogger.log." + logger, level));
    }
  }

  @Override
  public Integer call() throws Exception {
    if (port < 0 || port > 65535) {
      throw new CommandLine.ParameterException(
          spec.commandLine(), "--port must be in 0 .. 65535: " + port);
    }
    Path state = dir != null ? dir : Files.createTempDirectory("lake-iceberg-demo");
    Path warehouse = state.resolve("warehouse");
    Files.createDirectories(warehouse);
    RestCatalogFixture fixture;
    try {
      fixture =
          RestCatalogFixture.start(state, warehouse.toString(), Map.of(), port, Optional.empty());
    } catch (IOException e) {
      if (e instanceof BindException || e.getCause() instanceof BindException) {
        throw new IllegalStateException(
            "port " + port + " on 127.0.0.1 is in use; pass --port N (0 = any free port)", e);
      }
      throw new UncheckedIOException(e);
    }
    if (!fixture.backend().tableExists(TableIdentifier.of("demo", "nation"))) {
      DemoTables.create(fixture.backend());
    }
    Runtime.getRuntime().addShutdownHook(new Thread(() -> closeQuietly(fixture)));
    System.out.println("Iceberg REST catalog: " + fixture.uri());
    System.out.println("tables: iceberg.demo.nation (2 snapshots), iceberg.demo.region");
    System.out.println(
        "lake reads them with: --iceberg-rest "
            + fixture.uri()
            + " --iceberg-allow demo --data-locations "
            + warehouse.toAbsolutePath());
    System.out.println(
        "try: bin/lake local --iceberg-rest " + fixture.uri() + " --iceberg-allow demo");
    System.out.flush();
    // Jetty runs on daemon threads: keep the JVM alive until interrupted.
    Thread.currentThread().join();
    return 0;
  }

  private static void closeQuietly(RestCatalogFixture fixture) {
    try {
      fixture.close();
    } catch (Exception e) {
      System.err.println("stopping the REST catalog failed: " + e);
    }
  }
}
