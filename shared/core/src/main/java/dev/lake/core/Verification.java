package dev.lake.core;

import static java.util.Objects.requireNonNull;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;

/**
 * Sealed-snapshot checks that may still be running (e.g. Iceberg's REST round trips), in the
 * statement's table order. Whoever started them must {@link #await} them before it sends anything
 * derived from the tables: a check that fails after the statement ran still fails the call.
 */
public final class Verification {
  private static final Verification DONE = new Verification(List.of());

  private final List<CompletableFuture<Void>> checks;

  private Verification(List<CompletableFuture<Void>> checks) {
    this.checks = List.copyOf(requireNonNull(checks, "checks is null"));
  }

  /** Checks already passed. */
  public static Verification passed() {
    return DONE;
  }

  /** The given checks, in order. */
  public static Verification of(List<CompletableFuture<Void>> checks) {
    return new Verification(checks);
  }

  /** These checks followed by {@code later}'s. */
  public Verification and(Verification later) {
    requireNonNull(later, "later is null");
    List<CompletableFuture<Void>> all = new ArrayList<>(checks);
    all.addAll(later.checks);
    return new Verification(all);
  }

  /**
   * Waits for every check and throws the failure of the first one (in order) that failed; returns
   * when all passed.
   */
  public void await() {
    RuntimeException failure = null;
    for (CompletableFuture<Void> check : checks) {
      try {
        check.join();
      } catch (CompletionException | CancellationException e) {
        if (failure == null) {
          failure = unwrap(e);
        }
      }
    }
    if (failure != null) {
      throw failure;
    }
  }

  private static RuntimeException unwrap(RuntimeException e) {
    Throwable cause = e instanceof CompletionException ? e.getCause() : e;
    if (cause instanceof RuntimeException r) {
      return r;
    }
    return new LakeException(ErrorCode.INTERNAL, "Verifying a table failed", cause);
  }
}
