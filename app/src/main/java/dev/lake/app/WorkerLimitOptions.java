package dev.lake.app;

import dev.lake.durable.WorkerConfig;
import picocli.CommandLine.Option;

/**
 * The shared execution lease of durable workers, one definition used by {@code bin/lake serve} and
 * {@code bin/lake worker} (through {@link WorkerOptions}) and by {@code bin/lake local}, whose
 * in-process workers take the same lease in its job store.
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

  /** {@code config} with these bounds (validated by {@link WorkerConfig}). */
  public WorkerConfig apply(WorkerConfig config) {
    return config.withMaxRunning(maxRunning).withMaxRunningPerTenant(maxRunningPerTenant);
  }
}
