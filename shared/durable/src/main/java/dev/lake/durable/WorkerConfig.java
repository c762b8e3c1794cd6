package dev.lake.durable;

import static java.util.Objects.requireNonNull;

import dev.lake.core.Bounds;
import dev.lake.core.job.JobLimits;
import io.soabase.recordbuilder.core.RecordBuilder;
import java.time.Duration;

/**
 * Worker settings, validated once. Where results are written and their bounds are {@link
 * dev.lake.core.job.ResultLayout}'s, shared with the front door.
 *
 * @param lease how long a claim stays valid without renewal (default 60 s, 2 s - 15 min); a killed
 *     worker's job is taken over after at most this long
 * @param renewEvery lease renewal and cancellation-check period (default 15 s, at most lease / 2)
 * @param maxExecution absolute execution deadline of one attempt (default 14 min, 1 s - 12 h); in
 *     Lambda the deadline is also kept {@code lambdaMargin} below the remaining invocation time
 * @param lambdaMargin time kept in reserve before the Lambda timeout (default 20 s, 1 s - 5 min)
 * @param maxAttempts claims of one job before FAILED, counting transient (EXTERNAL) failures and
 *     workers that died with the job (lease expired) alike (default 3, 1 - 20)
 * @param retryDelay how long a handed-back or deferred job stays invisible (default 5 s, 0 - 15
 *     min)
 * @param maxRunning the shared execution lease: jobs running at once across every worker of the
 *     deployment, counted in the job store (default 64, 1 - 10,000); a claim beyond it leaves the
 *     job PENDING and defers its message by {@code retryDelay}
 * @param maxRunningPerTenant jobs of one tenant running at once across every worker (default 8, 1 -
 *     10,000); kept below the number of workers, a greedy tenant never holds them all
 * @param splitRows durable fan-out: the rows one split of a splittable statement should read
 *     (default 4,000,000, 1,000 - 10^12); a table of fewer than two splits' rows runs on one worker
 * @param maxFanOut durable fan-out: most splits (child jobs) of one statement (default 16, 1 -
 *     1,000; 1 turns fan-out off)
 */
@RecordBuilder
public record WorkerConfig(
    @RecordBuilder.Initializer("DEFAULT_LEASE") Duration lease,
    @RecordBuilder.Initializer("DEFAULT_RENEW_EVERY") Duration renewEvery,
    @RecordBuilder.Initializer("DEFAULT_MAX_EXECUTION") Duration maxExecution,
    @RecordBuilder.Initializer("DEFAULT_LAMBDA_MARGIN") Duration lambdaMargin,
    @RecordBuilder.Initializer("DEFAULT_MAX_ATTEMPTS") int maxAttempts,
    @RecordBuilder.Initializer("DEFAULT_RETRY_DELAY") Duration retryDelay,
    @RecordBuilder.Initializer("DEFAULT_MAX_RUNNING") int maxRunning,
    @RecordBuilder.Initializer("DEFAULT_MAX_RUNNING_PER_TENANT") int maxRunningPerTenant,
    @RecordBuilder.Initializer("DEFAULT_SPLIT_ROWS") long splitRows,
    @RecordBuilder.Initializer("DEFAULT_MAX_FAN_OUT") int maxFanOut)
    implements WorkerConfigBuilder.With {
  public static final Duration DEFAULT_LEASE = Duration.ofSeconds(60);
  public static final Duration DEFAULT_RENEW_EVERY = Duration.ofSeconds(15);
  public static final Duration DEFAULT_MAX_EXECUTION = Duration.ofMinutes(14);
  public static final Duration DEFAULT_LAMBDA_MARGIN = Duration.ofSeconds(20);
  public static final int DEFAULT_MAX_ATTEMPTS = 3;
  public static final Duration DEFAULT_RETRY_DELAY = Duration.ofSeconds(5);
  public static final int DEFAULT_MAX_RUNNING = 64;
  public static final int DEFAULT_MAX_RUNNING_PER_TENANT = 8;
  public static final int MAX_RUNNING = 10_000;
  public static final long DEFAULT_SPLIT_ROWS = 4_000_000;
  public static final int DEFAULT_MAX_FAN_OUT = 16;
  public static final long MIN_SPLIT_ROWS = 1_000;
  public static final int MAX_FAN_OUT = 1_000;

  public WorkerConfig {
    requireNonNull(lease, "lease is null");
    requireNonNull(renewEvery, "renewEvery is null");
    requireNonNull(maxExecution, "maxExecution is null");
    requireNonNull(lambdaMargin, "lambdaMargin is null");
    requireNonNull(retryDelay, "retryDelay is null");
    Bounds.check("lease", lease, Duration.ofSeconds(2), Duration.ofMinutes(15));
    Bounds.check("renewEvery", renewEvery, Duration.ofMillis(100), lease.dividedBy(2));
    Bounds.check("maxExecution", maxExecution, Duration.ofSeconds(1), Duration.ofHours(12));
    Bounds.check("lambdaMargin", lambdaMargin, Duration.ofSeconds(1), Duration.ofMinutes(5));
    Bounds.check("retryDelay", retryDelay, Duration.ZERO, Duration.ofMinutes(15));
    Bounds.check("maxAttempts", maxAttempts, 1, 20);
    Bounds.check("maxRunning", maxRunning, 1, MAX_RUNNING);
    Bounds.check("maxRunningPerTenant", maxRunningPerTenant, 1, MAX_RUNNING);
    Bounds.check("splitRows", splitRows, MIN_SPLIT_ROWS, 1_000_000_000_000L);
    Bounds.check("maxFanOut", maxFanOut, 1, MAX_FAN_OUT);
  }

  /** The execution lease as job-store limits (a claim). */
  public JobLimits runningLimits() {
    return JobLimits.running(maxRunningPerTenant, maxRunning);
  }

  public static WorkerConfig defaults() {
    return WorkerConfigBuilder.builder().build();
  }
}
