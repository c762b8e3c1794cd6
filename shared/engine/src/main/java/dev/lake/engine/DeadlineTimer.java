package dev.lake.engine;

import java.time.Duration;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;

/**
 * Fires execution deadlines: one daemon thread, each task only interrupts a statement. A deadline
 * cancelled because its statement ended first (the usual case) leaves the queue at once; by default
 * a cancelled task would stay queued until it would have fired — up to the query timeout (5 min),
 * so the queue would grow with queries per second × timeout.
 */
final class DeadlineTimer implements AutoCloseable {
  private final ScheduledThreadPoolExecutor timer =
      new ScheduledThreadPoolExecutor(
          1,
          r -> {
            Thread t = new Thread(r, "lake-query-deadlines");
            t.setDaemon(true);
            return t;
          });

  DeadlineTimer() {
    timer.setRemoveOnCancelPolicy(true);
  }

  /** Runs {@code expire} after {@code timeout} unless the returned future is cancelled first. */
  ScheduledFuture<?> schedule(Runnable expire, Duration timeout) {
    return timer.schedule(expire, timeout.toNanos(), TimeUnit.NANOSECONDS);
  }

  /** How many deadlines are waiting to fire. */
  int pending() {
    return timer.getQueue().size();
  }

  @Override
  public void close() {
    timer.shutdownNow();
  }
}
