package dev.lake.frontdoor;

import dev.lake.aws.AwsClients;
import dev.lake.aws.AwsConfig;
import dev.lake.core.Registry;
import dev.lake.core.TableRef;
import dev.lake.core.local.LocalKeyRing;
import dev.lake.runtime.AwsOptions;
import dev.lake.runtime.EngineOptions;
import dev.lake.runtime.EnvDefaults;
import dev.lake.runtime.IcebergOptions;
import dev.lake.runtime.KeySource;
import dev.lake.runtime.LakeRuntime;
import dev.lake.runtime.RegistryOptions;
import dev.lake.runtime.RegistrySource;
import dev.lake.runtime.RuntimeConfig;
import dev.lake.runtime.WorkerOptions;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.time.Clock;
import java.util.Optional;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
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
      LakeCli.AwsLocalCommand.class,
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
    return commandLine(System.getenv());
  }

  /** As {@link #commandLine()}, reading {@code LAKE_*} settings from {@code env}. */
  static CommandLine commandLine(java.util.Map<String, String> env) {
    return EnvDefaults.install(new CommandLine(new LakeCli()), env, "lake");
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
      name = "aws-local",
      mixinStandardHelpOptions = true,
      description =
          "Run the AWS deployment on this machine: an emulator (LocalStack at"
              + " LAKE_TEST_AWS_ENDPOINT, else moto_server), TPC-H as Lance in S3 registered in"
              + " DynamoDB, the front door (serve --durable aws) and a worker process.")
  static final class AwsLocalCommand implements Callable<Integer> {
    @Spec CommandLine.Model.CommandSpec spec;

    @Option(names = "--port", defaultValue = "31337", description = "Port (0 = any free port).")
    int port;

    @Option(
        names = "--data-dir",
        defaultValue = ".lake-aws",
        description = "Logs, principals and the demo token.")
    Path dataDir;

    @Option(names = "--token", description = "Bearer token to accept instead of the demo token.")
    String token;

    @Option(names = "--scale", defaultValue = "0.01", description = "TPC-H scale factor.")
    double scale;

    @Override
    public Integer call() throws Exception {
      PrintWriter out = spec.commandLine().getOut();
      AwsLocal lake =
          AwsLocal.start(
              new AwsLocal.Options(
                  dataDir,
                  "127.0.0.1",
                  port,
                  Optional.ofNullable(token),
                  scale,
                  Optional.empty(),
                  java.util.Map.of()),
              out);
      out.println("JDBC URL: " + lake.jdbcUrl());
      out.println("Token:    " + lake.token());
      out.println(
          "lake aws-local ready on 127.0.0.1:"
              + lake.port()
              + " (front door and worker logs in "
              + dataDir.resolve("logs")
              + "; Ctrl-C stops)");
      out.flush();
      return serveUntilStopped(lake);
    }
  }

  @Command(
      name = "serve",
      mixinStandardHelpOptions = true,
      description =
          "Serve registered tables to the principals of a principals file. Every flag --foo-bar"
              + " may also be set as the environment variable LAKE_FOO_BAR.")
  static final class Serve implements Callable<Integer> {
    @Spec CommandLine.Model.CommandSpec spec;

    @Option(names = "--host", defaultValue = "127.0.0.1", description = "Listen address.")
    String host;

    @Option(names = "--port", defaultValue = "31337", description = "Port (0 = any free port).")
    int port;

    @Option(names = "--principals-file", description = "Principals JSON file (required).")
    Path principals;

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

    @CommandLine.Mixin RegistryOptions registry;

    @CommandLine.Mixin IcebergOptions iceberg;

    @CommandLine.Mixin EngineOptions engine;

    @CommandLine.Mixin AwsOptions aws;

    @CommandLine.Mixin DurableOptions durable;

    @CommandLine.Mixin WorkerOptions worker;

    @CommandLine.Mixin MetricsOptions metrics;

    @Override
    public Integer call() throws Exception {
      FrontDoorConfig config =
          FrontDoorConfig.defaults()
              .withListener(host, port)
              .withTls(Optional.ofNullable(tlsCert), Optional.ofNullable(tlsKey))
              .withTrustedTlsProxy(trustedTlsProxy);
      TransportPolicy.check(config);
      if (principals == null) {
        throw new IllegalArgumentException("--principals-file (LAKE_PRINCIPALS_FILE) is required");
      }
      Principals loaded = Principals.load(principals);
      RegistrySource registrySource = registry.source();
      Optional<AwsConfig> awsConfig;
      KeySource keys;
      if (durable.aws()) {
        awsConfig = Optional.of(aws.durable());
        keys = new KeySource.Kms(aws.keyRingPrefix()); // replicas and workers share the KMS ring
      } else {
        if (aws.namesDurableResources()) {
          throw new IllegalArgumentException(
              "--result-bucket/--job-table/--job-queue-url/--kms-key-id need --durable aws");
        }
        if (keyRing == null) {
          throw new IllegalArgumentException("--key-ring is required unless --durable aws");
        }
        awsConfig =
            registrySource.table().isPresent() ? Optional.of(aws.clientsOnly()) : Optional.empty();
        keys = new KeySource.File(keyRing);
      }
      RuntimeConfig runtimeConfig =
          RuntimeConfig.builder(registrySource, keys, engine.engineConfig())
              .iceberg(iceberg.config())
              .aws(awsConfig)
              .resultPrefix(aws.resultPrefix())
              .build();
      DurableTierConfig tierConfig = durable.config(worker.config(aws.resultPrefix()));
      Clock clock = Clock.systemUTC();
      LakeRuntime runtime = LakeRuntime.start(runtimeConfig);
      Components components = Wiring.components(runtime);
      Optional<DurableTier> tier = Optional.empty();
      Optional<AutoCloseable> metricsEndpoint = Optional.empty();
      LakeServer server;
      try {
        if (durable.aws()) {
          tier = Optional.of(DurableTier.aws(runtime, components, tierConfig, clock));
        }
        // audit lines on stdout, meters scraped from the metrics endpoint when it is on
        PrometheusMeterRegistry meters = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
        metricsEndpoint = metrics.start(meters).map(AutoCloseable.class::cast);
        server =
            LakeServer.start(
                config,
                components,
                loaded,
                clock,
                tier,
                new CallObserver(AuditLog.stdout(), meters));
      } catch (RuntimeException e) {
        metricsEndpoint.ifPresent(LakeCli::closeQuietly);
        tier.ifPresent(DurableTier::close);
        components.close();
        throw e;
      }
      PrintWriter out = spec.commandLine().getOut();
      out.println(
          "lake ready on "
              + host
              + ":"
              + server.port()
              + (tier.isPresent() ? " (durable tier: aws)" : ""));
      out.flush();
      Optional<DurableTier> started = tier;
      Optional<AutoCloseable> endpoint = metricsEndpoint;
      return serveUntilStopped(
          () -> {
            try {
              server.close();
              started.ifPresent(DurableTier::close);
            } finally {
              try {
                components.close();
              } finally {
                endpoint.ifPresent(LakeCli::closeQuietly);
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

    /** The registry the options name (the local default when none is), closed after use. */
    static int withRegistry(
        RegistryOptions registry, AwsOptions aws, java.util.function.ToIntFunction<Registry> use) {
      RegistrySource source = registry.sourceOr(Path.of(".lake/registry.json"));
      Optional<AwsClients> clients = source.table().map(t -> new AwsClients(aws.clientsOnly()));
      try {
        return use.applyAsInt(LakeRuntime.registry(source, clients));
      } finally {
        clients.ifPresent(AwsClients::close);
      }
    }

    @Command(
        name = "register",
        mixinStandardHelpOptions = true,
        description =
            "Register a table in the registry file (--registry, default .lake/registry.json) or the"
                + " shared DynamoDB registry (--registry-table).")
    static final class Register implements Callable<Integer> {
      @Spec CommandLine.Model.CommandSpec spec;

      @CommandLine.Mixin RegistryOptions registry;

      @CommandLine.Mixin AwsOptions aws;

      @Parameters(index = "0", description = "lake.<namespace>.<table>")
      String name;

      @Parameters(
          index = "1",
          description = "Location of the Lance dataset (a path or s3://bucket/key).")
      String location;

      @Override
      public Integer call() {
        return withRegistry(
            registry,
            aws,
            r -> {
              var entry = r.register(TableRef.parse(name), location);
              spec.commandLine()
                  .getOut()
                  .println(
                      "registered " + entry.ref() + " (incarnation " + entry.incarnation() + ")");
              return 0;
            });
      }
    }

    @Command(
        name = "unregister",
        mixinStandardHelpOptions = true,
        description = "Unregister a table; tickets sealed for it fail closed.")
    static final class Unregister implements Callable<Integer> {
      @Spec CommandLine.Model.CommandSpec spec;

      @CommandLine.Mixin RegistryOptions registry;

      @CommandLine.Mixin AwsOptions aws;

      @Parameters(index = "0", description = "lake.<namespace>.<table>")
      String name;

      @Override
      public Integer call() {
        TableRef ref = TableRef.parse(name);
        return withRegistry(
            registry,
            aws,
            r -> {
              boolean removed = r.unregister(ref);
              spec.commandLine()
                  .getOut()
                  .println(removed ? "unregistered " + ref : ref + " was not registered");
              return removed ? 0 : 1;
            });
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
