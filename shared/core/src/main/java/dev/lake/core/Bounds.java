package dev.lake.core;

import java.time.Duration;

/**
 * The range check every config record uses at start-up, with one message shape: {@code "<name> must
 * be between <min> and <max>: <value>"}.
 */
public final class Bounds {
  private Bounds() {}

  /** {@code value} if it lies in {@code [min, max]}; else IllegalArgumentException naming it. */
  public static long check(String name, long value, long min, long max) {
    if (value < min || value > max) {
      throw outside(name, value, min, max);
    }
    return value;
  }

  /** {@code value} if it lies in {@code [min, max]}; else IllegalArgumentException naming it. */
  public static Duration check(String name, Duration value, Duration min, Duration max) {
    if (value.compareTo(min) < 0 || value.compareTo(max) > 0) {
      throw outside(name, value, min, max);
    }
    return value;
  }

  private static IllegalArgumentException outside(
      String name, Object value, Object min, Object max) {
    return new IllegalArgumentException(
        name + " must be between " + min + " and " + max + ": " + value);
  }
}
