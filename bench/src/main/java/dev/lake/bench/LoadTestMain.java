package dev.lake.bench;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** {@code lake loadtest}: the multi-tenant load test against an in-process lake on loopback. */
@Command(
    name = "lake loadtest",
    mixinStandardHelpOptions = true,
    description =
        "Runs N polite tenants x M Flight SQL clients against an in-process lake on 127.0.0.1,"
            + " first alone, then next to one greedy tenant (slow readers, heavy and memory-hungry"
            + " statements, durable job spam, oversized statements); prints the polite p50/p99 of"
            + " both phases, every outcome by Flight status and the peak RSS next to the engine"
            + " memory limit (Markdown).")
public final class LoadTestMain implements Callable<Integer> {
  @Option(
      names = "--quick",
      description = "10 s warm-up, 20 s baseline, 40 s contention (< 2 min).")
  boolean quick;

  @Option(names = "--tenants", description = "Polite tenants (default 3).")
  Integer tenants;

  @Option(names = "--clients", description = "Clients per polite tenant (default 2).")
  Integer clients;

  @Option(names = "--greedy-clients", description = "Clients of the greedy tenant (default 8).")
  Integer greedyClients;

  @Option(names = "--baseline-seconds", description = "Baseline phase (default 60; 20 quick).")
  Integer baselineSeconds;

  @Option(names = "--contention-seconds", description = "Contention phase (default 90; 40 quick).")
  Integer contentionSeconds;

  @Option(names = "--engine-memory-mb", description = "Engine memory limit (default 1024).")
  Long engineMemoryMb;

  @Option(
      names = "--data-dir",
      defaultValue = ".lake/loadtest",
      description = "Demo data, spill and durable results (default ${DEFAULT-VALUE}).")
  Path dataDir;

  @Option(names = "--out", description = "Also write the Markdown report to this file.")
  Path out;

  public static void main(String[] args) {
    System.exit(new CommandLine(new LoadTestMain()).execute(args));
  }

  @Override
  public Integer call() throws Exception {
    LoadConfig base = quick ? LoadConfig.quick() : LoadConfig.defaults();
    LoadConfig config =
        new LoadConfig(
            tenants != null ? tenants : base.politeTenants(),
            clients != null ? clients : base.clientsPerTenant(),
            greedyClients != null ? greedyClients : base.greedyClients(),
            base.warmup(),
            baselineSeconds != null ? Duration.ofSeconds(baselineSeconds) : base.baseline(),
            contentionSeconds != null ? Duration.ofSeconds(contentionSeconds) : base.contention(),
            base.thinkTime(),
            base.maxIterations(),
            base.scale(),
            engineMemoryMb != null ? engineMemoryMb << 20 : base.engineMemoryBytes(),
            base.idleStreamTimeout(),
            base.heavyDeadline());
    System.out.println("machine: " + MachineInfo.describe());
    LoadReport report = LoadTest.run(config, dataDir.toAbsolutePath(), System.out);
    String markdown = report.markdown();
    System.out.println();
    System.out.println(markdown);
    if (out != null) {
      Files.writeString(out, markdown);
    }
    return 0;
  }
}
