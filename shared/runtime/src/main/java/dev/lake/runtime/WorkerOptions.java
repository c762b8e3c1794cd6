package dev.lake.runtime;

import dev.lake.worker.WorkerConfig;
import dev.lake.worker.WorkerConfigBuilder;
import java.time.Duration;
import picocli.CommandLine.Option;

/** Lease, deadline and retry settings of a worker (Lambda, bin/lake worker, in-process). */
public final class WorkerOptions {
  @Option(
      names = "--worker-lease-seconds",
      defaultValue = "60",
      description = "How long a job claim lives without renewal (2 - 900 s).")
  long leaseSeconds;

  @Option(
      names = "--worker-renew-seconds",
      defaultValue = "15",
      description = "Lease renewal and cancellation-check period (at most half the lease).")
  long renewSeconds;

  @Option(
      names = "--worker-max-execution-seconds",
      defaultValue = "840",
      description = "Absolute execution deadline of one attempt (1 s - 12 h).")
  long maxExecutionSeconds;

  @Option(
      names = "--worker-lambda-margin-seconds",
      defaultValue = "20",
      description = "Time kept in reserve before the Lambda timeout (1 - 300 s).")
  long lambdaMarginSeconds;

  @Option(
      names = "--worker-max-attempts",
      defaultValue = "3",
      description = "Attempts for transient failures before FAILED (1 - 20).")
  int maxAttempts;

  @Option(
      names = "--worker-retry-delay-seconds",
      defaultValue = "5",
      description = "How long a handed-back or deferred job stays invisible (0 - 900 s).")
  long retryDelaySeconds;

  @Option(
      names = "--worker-threads",
      defaultValue = "2",
      description = "Jobs one bin/lake worker process runs at a time (1 - 256).")
  int threads;

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

  /** The validated worker settings, writing results under {@code resultPrefix}. */
  public WorkerConfig config(String resultPrefix) {
    return WorkerConfigBuilder.builder()
        .lease(Duration.ofSeconds(leaseSeconds))
        .renewEvery(Duration.ofSeconds(renewSeconds))
        .maxExecution(Duration.ofSeconds(maxExecutionSeconds))
        .lambdaMargin(Duration.ofSeconds(lambdaMarginSeconds))
        .maxAttempts(maxAttempts)
        .retryDelay(Duration.ofSeconds(retryDelaySeconds))
        .resultPrefix(resultPrefix)
        .maxRunning(maxRunning)
        .maxRunningPerTenant(maxRunningPerTenant)
        .build();
  }

  public int threads() {
    return threads;
  }
}
