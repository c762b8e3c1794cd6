package dev.lake.app;

import dev.lake.durable.WorkerConfig;
import picocli.CommandLine.Option;

/**
 * The shared execution lease of durable workers and their fan-out, one definition used by {@code
 * bin/lake serve} and {@code bin/lake worker} (through {@link WorkerOptions}) and by {@code
 * bin/lake local}, whose in-process workers take the same lease in its job store.
 */
public final class WorkerLimitOptions {
  @Option(
      names = "--worker-max-running",
      defaultValue = "" + WorkerConfig.DEFAULT_MAX_RUNNING,
      description =
          "Durable jobs running at once across every worker, counted in the job store (1 -"
              + " 10,000); beyond it a job stays pending and is retried later.")
  int maxRunning;

  @Option(
      names = "--worker-max-running-per-tenant",
      defaultValue = "" + WorkerConfig.DEFAULT_MAX_RUNNING_PER_TENANT,
      description =
          "Durable jobs of one tenant running at once across every worker (1 - 10,000); keep it"
              + " below the number of workers so that no tenant holds them all.")
  int maxRunningPerTenant;

  @Option(
      names = "--worker-split-rows",
      defaultValue = "" + WorkerConfig.DEFAULT_SPLIT_ROWS,
      description =
          "Durable fan-out: rows one split of a splittable statement (projection and filter over"
              + " one table) should read (1,000 - 10^12); smaller tables run on one worker.")
  long splitRows;

  @Option(
      names = "--worker-max-fan-out",
      defaultValue = "" + WorkerConfig.DEFAULT_MAX_FAN_OUT,
      description =
          "Durable fan-out: most splits (child jobs) of one statement (1 - 1,000; 1 = off). Keep"
              + " the worker concurrency above it so the splits run side by side.")
  int maxFanOut;

  /** {@code config} with these bounds (validated by {@link WorkerConfig}). */
  public WorkerConfig apply(WorkerConfig config) {
    return config
        .withMaxRunning(maxRunning)
        .withMaxRunningPerTenant(maxRunningPerTenant)
        .withSplitRows(splitRows)
        .withMaxFanOut(maxFanOut);
  }
}
