package dev.lake.engine;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadInfo;
import java.time.Duration;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;

/**
 * Fires execution deadlines: one daemon thread, each task only interrupts a statement. A deadline
 * cancelled because its statement ended first (the usual case) leaves the queue at once; by default
 * a cancelled task would stay queued until it would have fired — up to the query timeout (5 min),
 * so the queue would grow with queries per second × timeout.
 *
 * <p>A no-op {@link #KEEPER} task fires every second, so the queue's head is never more than a
 * second away. Why: the timer's queue signals its thread whenever a new task becomes the head, and
 * with finished deadlines removed the queue is usually empty, so every statement's deadline woke
 * the timer thread once (measured in the P1 round trip: 0.99 wake-ups and 34-64 µs of that thread's
 * CPU per query, on two cores shared with the query's own threads). A deadline further away than
 * the keeper's next run queues behind it without waking anyone; a shorter one still becomes the
 * head and fires on time. An idle engine pays one wake-up per second.
 */
final class DeadlineTimer implements AutoCloseable {
  /** How often the keeper runs: deadlines at least this far away wake no thread. */
  static final Duration KEEPER = Duration.ofSeconds(1);

  private volatile Thread thread;

  private final ScheduledThreadPoolExecutor timer =
      new ScheduledThreadPoolExecutor(
          1,
          r -> {
            Thread t = new Thread(r, "lake-query-deadlines");
            t.setDaemon(true);
            thread = t;
            return t;
          });

  private final ScheduledFuture<?> keeper;

  DeadlineTimer() {
    timer.setRemoveOnCancelPolicy(true);
    long period = KEEPER.toNanos();
    keeper = timer.scheduleAtFixedRate(() -> {}, period, period, TimeUnit.NANOSECONDS);
  }

  /** Runs {@code expire} after {@code timeout} unless the returned future is cancelled first. */
  ScheduledFuture<?> schedule(Runnable expire, Duration timeout) {
    return timer.schedule(expire, timeout.toNanos(), TimeUnit.NANOSECONDS);
  }

  /** How many deadlines are waiting to fire (the keeper is none of them). */
  int pending() {
    return (int) timer.getQueue().stream().filter(task -> task != keeper).count();
  }

  /**
   * How many times the timer thread has waited so far (each wake-up ends one wait and starts the
   * next), from the JVM's thread statistics; for tests.
   */
  long waits() {
    Thread t = thread;
    if (t == null) {
      return 0;
    }
    ThreadInfo info = ManagementFactory.getThreadMXBean().getThreadInfo(t.getId());
    return info == null ? 0 : info.getWaitedCount();
  }

  @Override
  public void close() {
    timer.shutdownNow();
  }
}
