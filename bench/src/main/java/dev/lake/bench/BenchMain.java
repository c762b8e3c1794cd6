package dev.lake.bench;

import java.nio.file.Path;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** {@code lake bench}: measures lake against its physical limits in one run. */
@Command(
    name = "lake bench",
    mixinStandardHelpOptions = true,
    description =
        "Measures lake side by side with its baselines (raw Arrow Flight, in-process DuckDB) and"
            + " writes a table to stdout, results.jsonl, report.md and chart.svg to --out.")
public final class BenchMain implements Callable<Integer> {
  @Option(names = "--sf", description = "TPC-H scale factor (default 1, or 0.1 with --quick).")
  Double scaleFactor;

  @Option(
      names = "--quick",
      description = "Scale factor 0.1 and fewer runs (2-4 minutes on 2 quiet cores).")
  boolean quick;

  @Option(
      names = "--out",
      defaultValue = "bench-out",
      description = "Directory for the results (default ${DEFAULT-VALUE}).")
  Path out;

  @Option(
      names = "--cache",
      defaultValue = ".lake/bench-cache",
      description =
          "Where generated data is kept and reused per scale factor"
              + " (default ${DEFAULT-VALUE}).")
  Path cache;

  @Option(
      names = "--iterations",
      description = "Timed runs per side (default 15; 5 with --quick); P1 runs ten times as many.")
  Integer iterations;

  @Option(
      names = "--warmups",
      description =
          "Minimum warm-up rounds (default 3; 1 quick); warm-up then runs until the medians"
              + " settle or its time cap passes. 0 = no warm-up at all (cold figures).")
  Integer warmups;

  @Option(
      names = "--only",
      split = ",",
      description = "Run only these metrics, e.g. P1,P3 (default: all).")
  List<String> only;

  @Option(
      names = "--no-fork",
      description = "Run the client loops in this JVM instead of a separate client JVM.")
  boolean noFork;

  public static void main(String[] args) {
    System.exit(new CommandLine(new BenchMain()).execute(args));
  }

  @Override
  public Integer call() throws Exception {
    BenchConfig base = quick ? BenchConfig.quick(out, cache) : BenchConfig.defaults(out, cache);
    Set<String> metrics = new LinkedHashSet<>();
    if (only != null) {
      only.forEach(m -> metrics.add(m.trim().toUpperCase(java.util.Locale.ROOT)));
    }
    BenchConfig config =
        new BenchConfig(
            scaleFactor != null ? scaleFactor : base.scaleFactor(),
            warmups != null ? warmups : base.warmups(),
            iterations != null ? iterations : base.iterations(),
            out.toAbsolutePath(),
            cache.toAbsolutePath(),
            metrics,
            !noFork,
            base.jmhSeconds(),
            base.concurrentRequests());
    long start = System.nanoTime();
    List<Result> results = Harness.run(config, System.out);
    System.out.printf(
        "%nwrote %s/{results.jsonl,report.md,chart.svg} in %.0f s%n",
        config.out(), (System.nanoTime() - start) / 1e9);
    return results.stream().anyMatch(r -> r.status() == Result.Status.FAILED) ? 1 : 0;
  }
}
