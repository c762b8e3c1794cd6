package dev.lake.core.testing;

import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.function.BooleanSupplier;

/**
 * Polling with a deadline for tests, instead of sleeping a fixed time: {@link #until} returns as
 * soon as a condition holds, {@link #holdsFor} checks a condition throughout a real-time window (a
 * property such as "stays hidden past its visibility timeout").
 */
public final class Poll {
  private static final long PAUSE_NANOS = TimeUnit.MILLISECONDS.toNanos(10);

  private Poll() {}

  /**
   * Re-checks {@code condition} until it holds; fails naming {@code what} once {@code max} passed.
   */
  public static void until(Duration max, BooleanSupplier condition, String what) {
    long deadline = System.nanoTime() + max.toNanos();
    while (!condition.getAsBoolean()) {
      if (System.nanoTime() - deadline > 0) {
        throw new AssertionError("not within " + max + ": " + what);
      }
      LockSupport.parkNanos(PAUSE_NANOS);
    }
  }

  /**
   * Re-checks {@code condition} until {@code span} has passed; fails naming {@code what} the first
   * time it does not hold. Each check may itself block (a receive with a wait time).
   */
  public static void holdsFor(Duration span, BooleanSupplier condition, String what) {
    long end = System.nanoTime() + span.toNanos();
    do {
      if (!condition.getAsBoolean()) {
        throw new AssertionError("stopped holding within " + span + ": " + what);
      }
      LockSupport.parkNanos(PAUSE_NANOS);
    } while (System.nanoTime() - end < 0);
  }
}
