package dev.lake.frontdoor;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executor;
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

  /**
   * Runs {@code n} tasks on {@code executor} one after another, each handed over only once the
   * previous one's thread is parked for its next task, and returns the names of the threads that
   * ran them, in order.
   */
  static List<String> runOneAfterAnother(Executor executor, int n) throws Exception {
    List<String> ran = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      CompletableFuture<Thread> worker = new CompletableFuture<>();
      executor.execute(() -> worker.complete(Thread.currentThread()));
      ran.add(worker.get(10, TimeUnit.SECONDS).getName());
      awaitParked(worker.get());
    }
    return ran;
  }

  /** Submits {@code n} tasks that hold their thread (or queue place) until {@code release}. */
  static void blockTasks(Executor executor, int n, CountDownLatch release) {
    for (int i = 0; i < n; i++) {
      executor.execute(
          () -> {
            try {
              release.await();
            } catch (InterruptedException e) {
              Thread.currentThread().interrupt();
            }
          });
    }
  }
}
