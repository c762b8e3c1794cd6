package dev.lake.frontdoor;

import java.util.concurrent.TimeUnit;

/** Test helper for the pools that hand work to the thread idle last. */
final class PoolThreads {
  private PoolThreads() {}

  /**
   * Waits (at most 10 s) until {@code worker} is parked waiting for its next task. Its pool's
   * active count drops a moment before that, and a task handed over in between finds no thread
   * waiting and starts another one, which is not what the tests measure.
   */
  static void awaitParked(Thread worker) {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
    while (System.nanoTime() < deadline) {
      Thread.State state = worker.getState();
      if (state == Thread.State.TIMED_WAITING || state == Thread.State.WAITING) {
        return;
      }
      Thread.onSpinWait();
    }
  }
}
