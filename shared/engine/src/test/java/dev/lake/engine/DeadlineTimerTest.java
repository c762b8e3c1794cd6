package dev.lake.engine;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * Statement deadlines: one fires on time, a cancelled one leaves the queue, and scheduling and
 * cancelling the usual far-away deadline does not wake the timer thread.
 */
class DeadlineTimerTest {
  @Test
  void farDeadlines_scheduledAndCancelled_doNotWakeTheTimerThread() throws Exception {
    try (DeadlineTimer timer = new DeadlineTimer()) {
      Thread.sleep(50); // the timer thread reached its first wait
      // GIVEN the timer thread's waits so far
      long before = timer.waits();
      long t0 = System.nanoTime();
      // WHEN 20 statements each get a 5-minute deadline and end before it, one after another
      for (int i = 0; i < 20; i++) {
        ScheduledFuture<?> deadline = timer.schedule(() -> {}, Duration.ofMinutes(5));
        Thread.sleep(5); // a woken timer thread would wait again meanwhile
        deadline.cancel(false);
      }
      long keeperRuns = 1 + (System.nanoTime() - t0) / DeadlineTimer.KEEPER.toNanos();
      // THEN the thread waited again only for the keeper (once a second), not per deadline
      assertThat(timer.waits() - before).isLessThanOrEqualTo(1 + keeperRuns);
      assertThat(timer.pending()).isZero();
    }
  }

  @Test
  void shortDeadline_beforeTheKeeper_firesOnTime() throws Exception {
    try (DeadlineTimer timer = new DeadlineTimer()) {
      CountDownLatch fired = new CountDownLatch(1);
      long t0 = System.nanoTime();
      // WHEN a deadline shorter than the keeper's period is scheduled
      timer.schedule(fired::countDown, Duration.ofMillis(100));
      // THEN it fires after its delay, not at the keeper's next run
      assertThat(fired.await(900, TimeUnit.MILLISECONDS)).isTrue();
      assertThat(System.nanoTime() - t0).isGreaterThanOrEqualTo(Duration.ofMillis(100).toNanos());
      assertThat(timer.pending()).isZero();
    }
  }

  @Test
  void deadline_beyondTheKeeper_firesAfterItsDelay() throws Exception {
    try (DeadlineTimer timer = new DeadlineTimer()) {
      CountDownLatch fired = new CountDownLatch(1);
      long t0 = System.nanoTime();
      // WHEN a deadline queues behind the keeper
      timer.schedule(fired::countDown, Duration.ofMillis(1300));
      // THEN it is pending until it fires after its own delay
      assertThat(timer.pending()).isEqualTo(1);
      assertThat(fired.await(5, TimeUnit.SECONDS)).isTrue();
      assertThat(System.nanoTime() - t0).isGreaterThanOrEqualTo(Duration.ofMillis(1300).toNanos());
    }
  }
}
