package dev.lake.app;

import dev.lake.aws.AwsConfig;
import dev.lake.durable.DurableTier;
import dev.lake.durable.DurableTierConfig;
import dev.lake.engine.AdmissionConfig;
import dev.lake.engine.ResultReuseConfig;
import dev.lake.frontdoor.AuditLog;
import dev.lake.frontdoor.Authenticator;
import dev.lake.frontdoor.CallObserver;
import dev.lake.frontdoor.Components;
import dev.lake.frontdoor.EngineMeters;
import dev.lake.frontdoor.FlightExecutorConfig;
import dev.lake.frontdoor.FrontDoorConfig;
import dev.lake.frontdoor.IdentityConfig;
import dev.lake.frontdoor.LakeServer;
import dev.lake.frontdoor.TransportPolicy;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.io.IOException;
import java.io.PrintWriter;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.nio.file.Path;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/** The {@code lake} command line: local mode, production serving and operator actions. */
@Command(
    name = "lake",
    mixinStandardHelpOptions = true,
    version = "lake " + LakeServer.VERSION,
    description = "Read-only Arrow Flight SQL service over data-lake tables.",
    footer = LakeCli.OTHER_COMMANDS,
    subcommands = {
      CommandLine.HelpCommand.class,
      LocalCommand.class,
      AwsLocalCommand.class,
      LakeCli.Serve.class,
      TableCommand.class,
      KeysCommand.class,
      PrincipalsCommand.class
    })
public final class LakeCli implements Runnable {
  /**
   * The commands {@code bin/lake} runs from other programs (the client, the worker, the demo
   * catalog, the bench, the CDK): listed in {@code bin/lake --help} after this program's own.
   */
  static final String OTHER_COMMANDS =
      """
      More commands of bin/lake (each has --help; bin/lake help CMD shows it):
        sql           Run SQL against lake, or open an interactive shell.
        submit        Submit a durable query; prints its handle.
        status        The state of a durable query.
        fetch         Download the result of a durable query into a file (resumable).
        cancel        Cancel a durable query.
        worker        Run durable-tier jobs from the job queue (the Lambda's code).
        iceberg-demo  Iceberg's REST catalog with demo tables, for --iceberg-rest.
        bench         Measure lake against its baselines.
        loadtest      Polite tenants next to a greedy one against an in-process lake.
        cdk synth     The AWS deployment's CloudFormation templates (needs Node.js).
      Any command: --verbose shows library log lines and stack traces.
      """;

  @Spec CommandLine.Model.CommandSpec spec;

  /**
   * JUL loggers set quiet for as long as the process runs (JUL keeps loggers weakly: a level set on
   * a logger nobody holds is lost).
   */
  private static final List<java.util.logging.Logger> QUIETED = new ArrayList<>();

  public static void main(String[] args) {
    quietLibraries(Boolean.getBoolean("lake.verbose"));
    System.exit(commandLine().execute(args));
  }

  /**
   * Keeps library lines a person does not need off the server's terminal unless {@code verbose}
   * (bin/lake's {@code --verbose} sets {@code lake.verbose}); call before any logger exists: gRPC's
   * stack trace (java.util.logging, WARNING) for every stream a client closed before the server
   * wrote to it (a killed {@code bin/lake fetch}, {@code | head}), and Hadoop's notice that it runs
   * without its native library (slf4j, at the first Iceberg query).
   */
  static void quietLibraries(boolean verbose) {
    if (verbose) {
      return;
    }
    java.util.logging.Logger grpc =
        java.util.logging.Logger.getLogger("io.grpc.netty.NettyServerHandler");
    grpc.setLevel(java.util.logging.Level.SEVERE);
    QUIETED.add(grpc);
    System.setProperty(
        "org.slf4j.simpleLogger.log.org.apache.hadoop.util.NativeCodeLoader", "error");
  }

  /**
   * Fails with one line, before any work, when {@code host:port} cannot be listened on (most often
   * another {@code bin/lake local} on the default port). Port 0 (any free port) always passes.
   */
  static void checkPortFree(String host, int port) {
    if (port == 0) {
      return;
    }
    try (ServerSocket socket = new ServerSocket()) {
      socket.setReuseAddress(true);
      socket.bind(new InetSocketAddress(host, port));
    } catch (IOException e) {
      throw new IllegalArgumentException(
          "--port "
              + port
              + ": cannot listen on "
              + host
              + ":"
              + port
              + " ("
              + e.getMessage()
              + "); another lake may be running there: stop it or pass another --port (0 = any"
              + " free port)");
    }
  }

  /**
   * The command line with lake's error handling ({@link EnvDefaults#install}): a configuration
   * mistake (an invalid flag value, a missing companion flag) prints one line naming it and exits
   * with 2; any other failure prints one line and exits with 1 (with {@code --verbose}, its stack
   * trace).
   */
  static CommandLine commandLine() {
    return commandLine(System.getenv());
  }

  /** As {@link #commandLine()}, reading {@code LAKE_*} settings from {@code env}. */
  public static CommandLine commandLine(java.util.Map<String, String> env) {
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
      name = "serve",
      mixinStandardHelpOptions = true,
      modelTransformer = FormatFlags.class,
      description =
          "Serve registered tables to the principals of a principals file. Every flag --foo-bar"
              + " may also be set as the environment variable LAKE_FOO_BAR.")
  public static final class Serve implements Callable<Integer> {
    @Spec CommandLine.Model.CommandSpec spec;

    @Option(names = "--host", defaultValue = "127.0.0.1", description = "Listen address.")
    String host;

    @Option(names = "--port", defaultValue = "31337", description = "Port (0 = any free port).")
    int port;

    @CommandLine.Mixin PrincipalsOptions principals;

    @CommandLine.Mixin public IdentityOptions identity;

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

    @CommandLine.Mixin EngineOptions engine;

    @CommandLine.Mixin AwsOptions aws;

    @CommandLine.Mixin DurableOptions durable;

    @CommandLine.Mixin WorkerOptions worker;

    @CommandLine.Mixin MetricsOptions metrics;

    @CommandLine.Mixin LimitOptions limits;

    /**
     * Everything the flags describe, built and validated; nothing is read, started or listened on
     * (the flag walk of CommandFlagsTest compares these with the defaults).
     */
    record Settings(
        FrontDoorConfig frontDoor,
        FlightExecutorConfig flightExecutor,
        AdmissionConfig admission,
        IdentityConfig identity,
        PrincipalsOptions.Source principals,
        RuntimeConfig runtime,
        DurableTierConfig tier,
        boolean durableAws,
        MetricsOptions.Listen metrics) {}

    Settings settings() {
      limits.validate();
      FrontDoorConfig config =
          limits
              .applyTo(FrontDoorConfig.defaults())
              .withListener(host, port)
              .withTls(Optional.ofNullable(tlsCert), Optional.ofNullable(tlsKey))
              .withTrustedTlsProxy(trustedTlsProxy);
      TransportPolicy.check(config);
      IdentityConfig identityConfig = identity.config();
      PrincipalsOptions.Source principalsSource =
          principals.source(identityConfig, aws.clientsOnly());
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
              .formatSettings(FormatFlags.settings(spec))
              .aws(awsConfig)
              .sandbox(engine.sandboxConfig())
              .build();
      return new Settings(
          config,
          limits.flightExecutor(),
          limits.admission(),
          identityConfig,
          principalsSource,
          runtimeConfig,
          durable.config(worker.config(), aws.resultLayout()),
          durable.aws(),
          metrics.listen());
    }

    @Override
    public Integer call() throws Exception {
      Settings settings = settings();
      FrontDoorConfig config = settings.frontDoor();
      List<AutoCloseable> owned = new ArrayList<>(); // the principals secret's poller
      Authenticator loaded =
          PrincipalsOptions.authenticator(
              settings.principals(), settings.identity(), Clock.systemUTC(), owned);
      RuntimeConfig runtimeConfig = settings.runtime();
      DurableTierConfig tierConfig = settings.tier();
      Clock clock = Clock.systemUTC();
      LakeRuntime runtime = LakeRuntime.start(runtimeConfig);
      Components components =
          Wiring.components(runtime, ResultReuseConfig.defaults(), settings.admission());
      Optional<DurableTier> tier = Optional.empty();
      Optional<AutoCloseable> metricsEndpoint = Optional.empty();
      LakeServer server;
      try {
        if (settings.durableAws()) {
          tier = Optional.of(Wiring.awsDurableTier(runtime, components, tierConfig, clock));
        }
        // audit lines on stdout, meters scraped from the metrics endpoint when it is on
        PrometheusMeterRegistry meters = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
        EngineMeters.bind(meters, components.engine());
        metricsEndpoint = settings.metrics().start(meters).map(AutoCloseable.class::cast);
        server =
            LakeServer.start(
                config,
                components,
                loaded,
                clock,
                tier,
                new CallObserver(AuditLog.stdout(), meters),
                settings.flightExecutor());
      } catch (RuntimeException e) {
        owned.forEach(LakeCli::closeQuietly);
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
      out.println(server.limitsLine());
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
                owned.forEach(LakeCli::closeQuietly);
              }
            }
          });
    }
  }
}
