package dev.lake.app;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/** The order in which {@code aws-local} stops what it started. */
final class AwsLocalStop {
  private AwsLocalStop() {}

  /**
   * Stops the worker first, then the front doors, and the emulator last, each even when an earlier
   * one fails: a worker or front door still running when the emulator stops fills its log with
   * "queue unavailable / connection refused" traces (null front doors never started).
   */
  static void inOrder(
      Optional<? extends AutoCloseable> worker,
      List<? extends AutoCloseable> frontDoors,
      AutoCloseable emulator) {
    List<AutoCloseable> order = new ArrayList<>();
    worker.ifPresent(order::add);
    frontDoors.stream().filter(Objects::nonNull).forEach(order::add);
    order.add(emulator);
    RuntimeException failure = null;
    for (AutoCloseable part : order) {
      try {
        part.close();
      } catch (Exception e) {
        if (failure == null) {
          failure = new IllegalStateException("stopping aws-local failed: " + e.getMessage(), e);
        } else {
          failure.addSuppressed(e);
        }
      }
    }
    if (failure != null) {
      throw failure;
    }
  }
}
