package dev.lake.core.job;

import static java.util.Objects.requireNonNull;

import java.util.Optional;

/**
 * Durable job records with compare-and-set transitions. Implementations: the embedded file store
 * (local mode) and DynamoDB (conditional writes). Both settle an ambiguous write (a timeout, or a
 * condition failure after an SDK retry) by looking at the stored record, so callers only ever see a
 * definite answer.
 *
 * <p>Accounting: with every write the store also keeps, atomically, the set of each tenant's active
 * (non-terminal) jobs, of its RUNNING jobs, and of all RUNNING jobs (see {@link JobLimits}).
 * Membership follows the state of the record written: a non-terminal record is in its tenant's
 * active set, a terminal one is not; a RUNNING record is in both running sets, any other is not.
 * Inserting and removing ids is idempotent, so retried or settled writes never count twice, and
 * every terminal transition (succeeded, failed, cancelled, expired, poison) releases the job's
 * places because it is a write of a terminal record. A write that would add its job to a set
 * already at its bound is {@code Refused} and changes nothing. Records that vanish without a
 * terminal write (a TTL-reaped expired job) are pruned from the sets when a write is refused.
 */
public interface JobStore {
  /** Stores {@code job} unless a record with its id exists; idempotent for resent submissions. */
  default CreateResult createIfAbsent(Job job) {
    return createIfAbsent(job, JobLimits.NONE);
  }

  /**
   * Stores {@code job} unless a record with its id exists, within {@code limits}: a new job that
   * would exceed them is {@code Refused}; an existing one is returned whatever the limits.
   */
  CreateResult createIfAbsent(Job job, JobLimits limits);

  /** The record, or empty. Expired records may still be returned; callers check expiry. */
  Optional<Job> find(String id);

  /**
   * Replaces the record with {@code next} iff its stored version is {@code expectedVersion}. {@code
   * next.version()} must be {@code expectedVersion + 1}.
   */
  default CasResult compareAndSet(long expectedVersion, Job next) {
    return compareAndSet(expectedVersion, next, JobLimits.NONE);
  }

  /**
   * {@link #compareAndSet(long, Job)} within {@code limits}: refused (nothing written) when {@code
   * next} would add its job to an active or running set already at its bound; a write that keeps
   * the job in the sets it is in already (a lease renewal) is never refused.
   */
  CasResult compareAndSet(long expectedVersion, Job next, JobLimits limits);

  /** The accounting of {@code tenant}, exact at the time of the call. */
  JobLimits.Usage usage(String tenant);

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

    /** No job with this id existed, and creating it would exceed a bound: nothing was written. */
    record Refused(JobLimits.Reached reached) implements CreateResult {
      public Refused {
        requireNonNull(reached, "reached is null");
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
     * The write would exceed a bound ({@link JobLimits}); nothing was written and {@code current}
     * is the stored record, still at the expected version.
     */
    record Refused(Job current, JobLimits.Reached reached) implements CasResult {
      public Refused {
        requireNonNull(current, "current is null");
        requireNonNull(reached, "reached is null");
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
