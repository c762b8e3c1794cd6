package dev.lake.app;

import dev.lake.durable.DurableTierConfig;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/** {@code lake local}: the whole service in one process over local adapters with demo data. */
@Command(
    name = "local",
    mixinStandardHelpOptions = true,
    modelTransformer = FormatFlags.class,
    description = "Run lake on this machine with TPC-H demo data (plaintext, loopback only).")
final class LocalCommand implements Callable<Integer> {
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

  @Option(
      names = "--grant",
      description =
          "Another grant of the demo principal, catalog.namespace or catalog.namespace.table"
              + " (repeatable; e.g. an Iceberg namespace). Every registered lake.* namespace is"
              + " granted without it.")
  List<String> grants = new ArrayList<>();

  @Option(
      names = "--durable",
      negatable = true,
      defaultValue = "true",
      fallbackValue = "true",
      description =
          "Durable result tier with an in-process worker (on by default; --no-durable: off).")
  boolean durable;

  @CommandLine.Mixin DurableLimitOptions durableLimits;

  @CommandLine.Mixin WorkerLimitOptions workerLimits;

  @CommandLine.Mixin EngineOptions engine;

  @CommandLine.Mixin LimitOptions limits;

  @CommandLine.Mixin IdentityOptions identity;

  @Override
  public Integer call() throws Exception {
    PrintWriter out = spec.commandLine().getOut();
    // every setting and the port are checked before any data is generated
    limits.validate();
    LocalLake.Options options = options();
    LakeCli.checkPortFree(host, port);
    LocalLake lake = LocalLake.start(options, limits, out);
    out.println("JDBC URL: " + lake.jdbcUrl());
    out.println(lake.server().limitsLine());
    out.println("Token:    " + lake.token());
    out.println(
        "Query:    bin/lake sql --url "
            + lake.url()
            + (dataDir.equals(Path.of(".lake")) ? "" : " --data-dir " + dataDir));
    out.println("lake ready on " + host + ":" + lake.port() + " (Ctrl-C stops)");
    out.flush();
    return LakeCli.serveUntilStopped(lake);
  }

  /** Local mode's options as the parsed flags give them (validated, before any data exists). */
  LocalLake.Options options() {
    return LocalLake.options(dataDir)
        .host(host)
        .port(port)
        .token(Optional.ofNullable(token))
        .scale(scale)
        .grants(grants)
        .formatSettings(FormatFlags.settings(spec))
        .durable(durableConfig())
        .engine(Optional.of(engine.engineConfig(new LocalLake.Layout(dataDir).spill())))
        .identity(identity.config())
        .sandbox(engine.sandboxConfig())
        .build();
  }

  /** The durable tier of local mode with the bounds of the flags (validated), or empty if off. */
  Optional<DurableTierConfig> durableConfig() {
    return durable
        ? LocalLake.localDurable()
            .map(durableLimits::apply)
            .map(tier -> tier.withWorker(workerLimits.apply(tier.worker())))
        : Optional.empty();
  }
}
