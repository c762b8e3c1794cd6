package dev.lake.frontdoor;

import dev.lake.aws.AwsClients;
import dev.lake.aws.AwsConfig;
import dev.lake.core.KeyService;
import dev.lake.core.LakeException;
import dev.lake.core.TableRef;
import dev.lake.core.local.FileRegistry;
import dev.lake.core.local.LocalKeyRing;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/** The {@code lake} command line: local mode, production serving and operator actions. */
@Command(
    name = "lake",
    mixinStandardHelpOptions = true,
    version = "lake " + LakeServer.VERSION,
    description = "Read-only Arrow Flight SQL service over data-lake tables.",
    subcommands = {
      LakeCli.Local.class,
      LakeCli.Serve.class,
      LakeCli.Table.class,
      LakeCli.Keys.class
    })
public final class LakeCli implements Runnable {
  @Spec CommandLine.Model.CommandSpec spec;

  public static void main(String[] args) {
    System.exit(commandLine().execute(args));
  }

  /**
   * The command line with lake's error handling: a configuration mistake (an invalid flag value, a
   * missing companion flag) prints one line naming it and exits with 2; anything else keeps its
   * stack trace.
   */
  static CommandLine commandLine() {
    CommandLine cli = new CommandLine(new LakeCli());
    cli.setExecutionExceptionHandler(
        (ex, cmd, parsed) -> {
          if (ex instanceof IllegalArgumentException || ex instanceof LakeException) {
            cmd.getErr().println("lake: " + ex.getMessage());
            return 2;
          }
          throw ex;
        });
    return cli;
  }

  @Override
  public void run() {
    spec.commandLine().usage(spec.commandLine().getOut());
  }

  /** Blocks until Ctrl-C (shutdown hook) or interruption, then closes {@code resource} once. */
  static int serveUntilStopped(AutoCloseable resource) throws Exception {
    CountDownLatch stopped = new CountDownLatch(1);
    Thread hook =
        new Thread(
            () -> {
              closeQuietly(resource);
              stopped.countDown();
            },
            "lake-shutdown");
    Runtime.getRuntime().addShutdownHook(hook);
    try {
      stopped.await();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    } finally {
      if (stopped.getCount() > 0) {
        try {
          Runtime.getRuntime().removeShutdownHook(hook);
        } catch (IllegalStateException shuttingDown) {
          // the hook is running already and closes the resource
        }
        resource.close();
      }
    }
    return 0;
  }

  private static void closeQuietly(AutoCloseable resource) {
    try {
      resource.close();
    } catch (Exception e) {
      System.err.println("error while stopping: " + e.getMessage());
    }
  }

  @Command(
      name = "local",
      mixinStandardHelpOptions = true,
      description = "Run lake on this machine with TPC-H demo data (plaintext, loopback only).")
  static final class Local implements Callable<Integer> {
    @Spec CommandLine.Model.CommandSpec spec;

    @Option(names = "--host", defaultValue = "127.0.0.1", description = "Loopback address.")
    String host;

    @Option(names = "--port", defaultValue = "31337", description = "Port (0 = any free port).")
    int port;

    @Option(names = "--data-dir", defaultValue = ".lake", description = "Data directory.")
    Path dataDir;

    @Option(names = "--token", description = "Bearer token to accept instead of the demo token.")
    String token;

    @Option(names = "--scale", defaultValue = "0.01", description = "TPC-H scale factor.")
    double scale;

    @CommandLine.Mixin IcebergOptions iceberg;

    @Option(
        names = "--durable",
        negatable = true,
        defaultValue = "true",
        fallbackValue = "true",
        description =
            "Durable result tier with an in-process worker (on by default; --no-durable: off).")
    boolean durable;

    @CommandLine.Mixin EngineOptions engine;

    @Override
    public Integer call() throws Exception {
      PrintWriter out = spec.commandLine().getOut();
      LocalLake lake =
          LocalLake.start(
              new LocalLake.Options(
                  dataDir,
                  host,
                  port,
                  Optional.ofNullable(token),
                  scale,
                  Clock.systemUTC(),
                  iceberg.config(),
                  durable ? LocalLake.localDurable() : Optional.empty(),
                  engine.snapshotCacheBytes()),
              out);
      out.println("JDBC URL: " + lake.jdbcUrl());
      out.println("Token:    " + lake.token());
      out.println("lake ready on " + host + ":" + lake.port() + " (Ctrl-C stops)");
      out.flush();
      return serveUntilStopped(lake);
    }
  }

  @Command(
      name = "serve",
      mixinStandardHelpOptions = true,
      description = "Serve registered tables to the principals of a principals file.")
  static final class Serve implements Callable<Integer> {
    @Spec CommandLine.Model.CommandSpec spec;

    @Option(names = "--host", defaultValue = "127.0.0.1", description = "Listen address.")
    String host;

    @Option(names = "--port", defaultValue = "31337", description = "Port.")
    int port;

    @Option(names = "--principals-file", required = true, description = "Principals JSON file.")
    Path principals;

    @Option(names = "--registry", required = true, description = "Registry file.")
    Path registry;

    @Option(
        names = "--key-ring",
        description = "Ticket key ring file (required unless --durable aws: then KMS keys).")
    Path keyRing;

    @Option(names = "--tls-cert", description = "PEM certificate chain.")
    Path tlsCert;

    @Option(names = "--tls-key", description = "PEM PKCS#8 private key.")
    Path tlsKey;

    @Option(
        names = "--trusted-tls-proxy",
        description = "Plaintext on a non-loopback address behind a TLS-terminating proxy.")
    boolean trustedTlsProxy;

    @Option(
        names = "--spill-dir",
        defaultValue = "${java.io.tmpdir}/lake-spill",
        description = "Engine spill directory.")
    Path spillDir;

    @CommandLine.Mixin IcebergOptions iceberg;

    @CommandLine.Mixin DurableOptions durable;

    @CommandLine.Mixin EngineOptions engine;

    @CommandLine.Mixin MetricsOptions metrics;

    @Override
    public Integer call() throws Exception {
      FrontDoorConfig config =
          FrontDoorConfig.defaults()
              .withListener(host, port)
              .withTls(Optional.ofNullable(tlsCert), Optional.ofNullable(tlsKey))
              .withTrustedTlsProxy(trustedTlsProxy);
      TransportPolicy.check(config);
      Principals loaded = Principals.load(principals);
      BufferAllocator allocator = new RootAllocator();
      List<CatalogPlugin> catalogs = new ArrayList<>();
      catalogs.add(
          Wiring.lanceCatalog(new FileRegistry(registry), allocator, Wiring.DEFAULT_FRESHNESS));
      if (iceberg.config().isPresent()) {
        catalogs.add(Wiring.icebergCatalog(iceberg.config().get(), allocator));
      }
      Optional<AwsConfig> aws = durable.aws();
      if (aws.isEmpty() && keyRing == null) {
        throw new IllegalArgumentException("--key-ring is required unless --durable aws");
      }
      List<AutoCloseable> resources = new ArrayList<>();
      Optional<AwsClients> clients = aws.map(AwsClients::new);
      clients.ifPresent(resources::add);
      // with --durable aws the KMS ring seals statement tickets too: replicas and workers share it
      KeyService keys =
          aws.isPresent()
              ? DurableTier.kmsKeys(
                  clients.get(), aws.get(), DurableTier.KEY_RING_PREFIX, Clock.systemUTC())
              : LocalKeyRing.load(keyRing);
      if (keys instanceof AutoCloseable closeable) {
        resources.add(closeable);
      }
      Components components =
          Wiring.components(allocator, engine.engineConfig(spillDir), keys, catalogs);
      Optional<DurableTier> tier =
          aws.map(
              a ->
                  DurableTier.aws(
                      clients.get(), a, keys, components, durable.config(), Clock.systemUTC()));
      // audit lines on stdout, meters scraped from the metrics endpoint when it is on
      PrometheusMeterRegistry meters = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
      metrics.start(meters).ifPresent(resources::add);
      LakeServer server =
          LakeServer.start(
              config,
              components,
              loaded,
              Clock.systemUTC(),
              tier,
              new CallObserver(AuditLog.stdout(), meters));
      PrintWriter out = spec.commandLine().getOut();
      out.println(
          "lake ready on "
              + host
              + ":"
              + server.port()
              + (tier.isPresent() ? " (durable tier: aws)" : ""));
      out.flush();
      return serveUntilStopped(
          () -> {
            try {
              server.close();
              tier.ifPresent(DurableTier::close);
            } finally {
              try {
                components.close();
              } finally {
                for (int i = resources.size() - 1; i >= 0; i--) {
                  closeQuietly(resources.get(i));
                }
                allocator.close();
              }
            }
          });
    }
  }

  @Command(
      name = "table",
      mixinStandardHelpOptions = true,
      description = "Register or unregister Lance tables (trusted operator action).",
      subcommands = {Table.Register.class, Table.Unregister.class})
  static final class Table implements Runnable {
    @Spec CommandLine.Model.CommandSpec spec;

    @Override
    public void run() {
      spec.commandLine().usage(spec.commandLine().getOut());
    }

    @Command(name = "register", mixinStandardHelpOptions = true, description = "Register a table.")
    static final class Register implements Callable<Integer> {
      @Spec CommandLine.Model.CommandSpec spec;

      @Option(
          names = "--registry",
          defaultValue = ".lake/registry.json",
          description = "Registry file.")
      Path registry;

      @Parameters(index = "0", description = "lake.<namespace>.<table>")
      String name;

      @Parameters(index = "1", description = "Location of the Lance dataset.")
      String location;

      @Override
      public Integer call() {
        var entry = new FileRegistry(registry).register(TableRef.parse(name), location);
        spec.commandLine()
            .getOut()
            .println("registered " + entry.ref() + " (incarnation " + entry.incarnation() + ")");
        return 0;
      }
    }

    @Command(
        name = "unregister",
        mixinStandardHelpOptions = true,
        description = "Unregister a table; tickets sealed for it fail closed.")
    static final class Unregister implements Callable<Integer> {
      @Spec CommandLine.Model.CommandSpec spec;

      @Option(
          names = "--registry",
          defaultValue = ".lake/registry.json",
          description = "Registry file.")
      Path registry;

      @Parameters(index = "0", description = "lake.<namespace>.<table>")
      String name;

      @Override
      public Integer call() {
        TableRef ref = TableRef.parse(name);
        boolean removed = new FileRegistry(registry).unregister(ref);
        spec.commandLine()
            .getOut()
            .println(removed ? "unregistered " + ref : ref + " was not registered");
        return removed ? 0 : 1;
      }
    }
  }

  @Command(
      name = "keys",
      mixinStandardHelpOptions = true,
      description = "Manage the ticket key ring.",
      subcommands = {Keys.Rotate.class})
  static final class Keys implements Runnable {
    @Spec CommandLine.Model.CommandSpec spec;

    @Override
    public void run() {
      spec.commandLine().usage(spec.commandLine().getOut());
    }

    @Command(
        name = "rotate",
        mixinStandardHelpOptions = true,
        description = "Add a new sealing key; the oldest beyond --max-keys is dropped.")
    static final class Rotate implements Callable<Integer> {
      @Spec CommandLine.Model.CommandSpec spec;

      @Option(
          names = "--key-ring",
          defaultValue = ".lake/keyring.json",
          description = "Key ring file.")
      Path keyRing;

      @Option(names = "--max-keys", defaultValue = "4", description = "Keys kept (2-64).")
      int maxKeys;

      @Override
      public Integer call() {
        LocalKeyRing ring = LocalKeyRing.rotate(keyRing, maxKeys);
        spec.commandLine()
            .getOut()
            .println("key ring now holds " + ring.keyIds() + " (newest last seals)");
        return 0;
      }
    }
  }
}
