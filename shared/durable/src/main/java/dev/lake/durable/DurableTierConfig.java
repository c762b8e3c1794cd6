package dev.lake.durable;

import static java.util.Objects.requireNonNull;

import dev.lake.core.Bounds;
import dev.lake.core.job.DurableConfig;
import dev.lake.core.job.ResultConfig;
import dev.lake.core.job.ResultLayout;
import io.soabase.recordbuilder.core.RecordBuilder;
import java.time.Duration;

/**
 * Settings of the front door's durable tier (PollFlightInfo, part downloads, the GetFlightInfo wait
 * budget), validated once. The tier itself is off unless a deployment enables it ({@code lake
 * local} does by default; {@code lake serve --durable aws}).
 *
 * @param pollWait how long one PollFlightInfo long-polls an unfinished job before answering
 *     (default 1 s, 0 - 10 s)
 * @param waitBudget how long GetFlightInfo with {@code x-lake-durable: true} waits for the job
 *     before answering UNAVAILABLE (default 30 s, 0 - 5 min)
 * @param workers in-process worker threads (default 2 for local mode, 0 - 64; 0 = workers run
 *     elsewhere, e.g. Lambda or {@code bin/lake worker})
 * @param sweepEvery period of the local-mode expiry sweep of results and job records (default 10
 *     min, 1 s - 24 h)
 * @param durable job and part-ticket lifetimes, the queued bound
 * @param worker lease, deadline and retry settings of in-process workers
 * @param layout where results live and their bounds: the one record the front door reads and the
 *     workers (in-process or elsewhere, from the same {@code --result-prefix}) write with
 */
@RecordBuilder
public record DurableTierConfig(
    @RecordBuilder.Initializer("DEFAULT_POLL_WAIT") Duration pollWait,
    @RecordBuilder.Initializer("DEFAULT_WAIT_BUDGET") Duration waitBudget,
    @RecordBuilder.Initializer("DEFAULT_WORKERS") int workers,
    @RecordBuilder.Initializer("DEFAULT_SWEEP_EVERY") Duration sweepEvery,
    @RecordBuilder.Initializer("defaultDurable") DurableConfig durable,
    @RecordBuilder.Initializer("defaultWorker") WorkerConfig worker,
    @RecordBuilder.Initializer("defaultLayout") ResultLayout layout)
    implements DurableTierConfigBuilder.With {
  public static final Duration DEFAULT_POLL_WAIT = Duration.ofSeconds(1);
  public static final Duration MAX_POLL_WAIT = Duration.ofSeconds(10);
  public static final Duration DEFAULT_WAIT_BUDGET = Duration.ofSeconds(30);
  public static final Duration MAX_WAIT_BUDGET = Duration.ofMinutes(5);
  public static final int DEFAULT_WORKERS = 2;
  public static final int MAX_WORKERS = 64;
  public static final Duration DEFAULT_SWEEP_EVERY = Duration.ofMinutes(10);

  public DurableTierConfig {
    requireNonNull(pollWait, "pollWait is null");
    requireNonNull(waitBudget, "waitBudget is null");
    requireNonNull(sweepEvery, "sweepEvery is null");
    requireNonNull(durable, "durable is null");
    requireNonNull(worker, "worker is null");
    requireNonNull(layout, "layout is null");
    Bounds.check("pollWait", pollWait, Duration.ZERO, MAX_POLL_WAIT);
    Bounds.check("waitBudget", waitBudget, Duration.ZERO, MAX_WAIT_BUDGET);
    Bounds.check("sweepEvery", sweepEvery, Duration.ofSeconds(1), Duration.ofHours(24));
    Bounds.check("workers", workers, 0, MAX_WORKERS);
  }

  /** Default waits, two in-process workers, results under {@code results/}. */
  public static DurableTierConfig defaults() {
    return DurableTierConfigBuilder.builder().build();
  }

  public static DurableConfig defaultDurable() {
    return DurableConfig.defaults();
  }

  public static WorkerConfig defaultWorker() {
    return WorkerConfig.defaults();
  }

  public static ResultLayout defaultLayout() {
    return ResultLayout.defaults();
  }

  /** The same settings with other result bounds (for the front door and the workers alike). */
  public DurableTierConfig withResults(ResultConfig bounds) {
    return withLayout(layout.withBounds(bounds));
  }

  /** The same settings with another bound on each tenant's queued or running jobs. */
  public DurableTierConfig withMaxQueuedPerTenant(int value) {
    return withDurable(durable.withMaxQueuedPerTenant(value));
  }

  /** The same settings with another result prefix (for the front door and the workers alike). */
  public DurableTierConfig withResultPrefix(String prefix) {
    return withLayout(layout.withPrefix(prefix));
  }
}
