package dev.lake.app;

import dev.lake.durable.WorkerConfig;
import dev.lake.durable.WorkerConfigBuilder;
import java.time.Duration;
import picocli.CommandLine.Mixin;
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

  @Mixin WorkerLimitOptions limits;

  /** The validated worker settings. */
  public WorkerConfig config() {
    return limits.apply(
        WorkerConfigBuilder.builder()
            .lease(Duration.ofSeconds(leaseSeconds))
            .renewEvery(Duration.ofSeconds(renewSeconds))
            .maxExecution(Duration.ofSeconds(maxExecutionSeconds))
            .lambdaMargin(Duration.ofSeconds(lambdaMarginSeconds))
            .maxAttempts(maxAttempts)
            .retryDelay(Duration.ofSeconds(retryDelaySeconds))
            .build());
  }
}
