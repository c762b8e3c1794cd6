package dev.lake.core.job;

import static java.util.Objects.requireNonNull;

import java.util.Optional;

/**
 * Durable job records with compare-and-set transitions. Implementations: the embedded file store
 * (local mode) and DynamoDB (conditional writes). Both settle an ambiguous write (a timeout, or a
 * condition failure after an SDK retry) by looking at the stored record, so callers only ever see a
 * definite answer.
 */
public interface JobStore {
  /** Stores {@code job} unless a record with its id exists; idempotent for resent submissions. */
  CreateResult createIfAbsent(Job job);

  /** The record, or empty. Expired records may still be returned; callers check expiry. */
  Optional<Job> find(String id);

  /**
   * Replaces the record with {@code next} iff its stored version is {@code expectedVersion}. {@code
   * next.version()} must be {@code expectedVersion + 1}.
   */
  CasResult compareAndSet(long expectedVersion, Job next);

  /**
   * Waits until the record of {@code id} may no longer be at {@code version}, or {@code max}
   * passes; then the caller reads it again. A store that sees its own writes (the embedded one)
   * returns as soon as a write lands, so long-polls answer without a polling delay; the default
   * simply waits {@code max}, so remote stores are read at the caller's back-off.
   */
  default void awaitChange(String id, long version, java.time.Duration max)
      throws InterruptedException {
    Thread.sleep(Math.max(0, max.toMillis()));
  }

  /** The outcome of {@link #createIfAbsent}. */
  sealed interface CreateResult {
    Job job();

    /** The job was created by this call. */
    record Created(Job job) implements CreateResult {
      public Created {
        requireNonNull(job, "job is null");
      }
    }

    /** A job with this id existed; {@code job} is the stored one. */
    record Existing(Job job) implements CreateResult {
      public Existing {
        requireNonNull(job, "job is null");
      }
    }
  }

  /** The outcome of {@link #compareAndSet}. */
  sealed interface CasResult {
    /** Whether {@code next} is now the stored record. */
    boolean applied();

    /** The stored record after the call. */
    Job current();

    /** The write was applied; {@code current} is {@code next}. */
    record Applied(Job current) implements CasResult {
      public Applied {
        requireNonNull(current, "current is null");
      }

      @Override
      public boolean applied() {
        return true;
      }
    }

    /** Another writer won the race; {@code current} is what it stored. */
    record Conflict(Job current) implements CasResult {
      public Conflict {
        requireNonNull(current, "current is null");
      }

      @Override
      public boolean applied() {
        return false;
      }
    }

    /**
     * The store could not tell directly (timeout, or a condition failure after a retry of our own
     * write) and settled the outcome by re-reading: {@code applied} iff the stored record is
     * exactly {@code next}.
     */
    record Settled(Job current, boolean applied) implements CasResult {
      public Settled {
        requireNonNull(current, "current is null");
      }
    }
  }

  /** Checks the arguments of {@link #compareAndSet}; for implementations. */
  static void checkCas(long expectedVersion, Job next) {
    requireNonNull(next, "next is null");
    if (next.version() != expectedVersion + 1) {
      throw new IllegalArgumentException(
          "next.version must be expectedVersion + 1: " + next.version() + " vs " + expectedVersion);
    }
  }
}
