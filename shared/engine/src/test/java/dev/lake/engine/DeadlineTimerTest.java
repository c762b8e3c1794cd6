package dev.lake.engine;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Statement deadlines: one fires on time, a cancelled one leaves the queue, and scheduling and
 * cancelling the usual far-away deadline does not wake the timer thread.
 */
class DeadlineTimerTest {
  @Test
  void farDeadlines_scheduledAndCancelled_doNotWakeTheTimerThread() throws Exception {
    try (DeadlineTimer timer = new DeadlineTimer()) {
      awaitFirstWait(timer);
      // GIVEN the timer thread's waits so far
      long before = timer.waits();
      long t0 = System.nanoTime();
      // WHEN 20 statements each get a 5-minute deadline and end before it, one after another
      for (int i = 0; i < 20; i++) {
        ScheduledFuture<?> deadline = timer.schedule(() -> {}, Duration.ofMinutes(5));
        assertThat(timer.pending()).isEqualTo(1); // the deadline counts, the keeper does not
        // a window, not a wait for a state: what must not happen (a wake-up) cannot be latched on,
        // and a woken timer thread waits again within it, so each wake-up counts once
        Thread.sleep(5);
        deadline.cancel(false);
      }
      long keeperRuns = 1 + (System.nanoTime() - t0) / DeadlineTimer.KEEPER.toNanos();
      // THEN the thread waited again only for the keeper (once a second), not per deadline
      assertThat(timer.waits() - before).isLessThanOrEqualTo(1 + keeperRuns);
      assertThat(timer.pending()).isZero();
    }
  }

  @ParameterizedTest(name = "{0} ms")
  @ValueSource(longs = {100, 1300})
  void deadline_beforeOrBehindTheKeeper_firesAfterItsOwnDelay(long delayMillis) throws Exception {
    try (DeadlineTimer timer = new DeadlineTimer()) {
      CountDownLatch fired = new CountDownLatch(1);
      long t0 = System.nanoTime();
      // WHEN a deadline shorter than the keeper's period (it becomes the queue's head) or longer
      // than it (it queues behind the keeper) is scheduled
      timer.schedule(fired::countDown, Duration.ofMillis(delayMillis));
      // THEN it fires after its own delay, not at a later run of the keeper
      assertThat(fired.await(delayMillis + 800, TimeUnit.MILLISECONDS)).isTrue();
      assertThat(System.nanoTime() - t0)
          .isGreaterThanOrEqualTo(TimeUnit.MILLISECONDS.toNanos(delayMillis));
      assertThat(timer.pending()).isZero();
    }
  }

  /** Waits (at most 10 s) until the timer thread entered its first wait (the keeper's delay). */
  private static void awaitFirstWait(DeadlineTimer timer) {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
    while (timer.waits() == 0) {
      assertThat(System.nanoTime()).as("the timer thread never waited").isLessThan(deadline);
      Thread.onSpinWait();
    }
  }
}
