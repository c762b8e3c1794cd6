package dev.lake.core.job;

import static java.util.Objects.requireNonNull;

import dev.lake.core.ErrorCode;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.Arrays;
import java.util.Optional;

/**
 * One durable job record as the job store holds it. The query itself is only present as {@code
 * envelope}: AEAD ciphertext of {SQL, parameters, snapshot set, principal} (see the durable tier's
 * {@code EnvelopeSealer}); the record never holds credentials or source bytes.
 *
 * @param id identity-bound job id, {@code hash(tenant, principal, submission id)}
 * @param version incremented by every transition; the compare-and-set token
 * @param attempt how many times a worker claimed the job
 * @param queryId the random, non-semantic result directory of the current attempt (empty until
 *     claimed); a new attempt gets a new one, so a fenced-off worker can never touch the winner's
 *     objects
 * @param fingerprint hash of the statement, parameters and snapshots; a resent submission id with a
 *     different statement is rejected
 * @param progress in [0, 1]
 * @param manifestKey object key of the published manifest, set exactly when SUCCEEDED
 */
public record Job(
    String id,
    String tenant,
    String principal,
    JobState state,
    long version,
    Optional<Lease> lease,
    int attempt,
    Optional<String> queryId,
    String fingerprint,
    byte[] envelope,
    double progress,
    long rowsWritten,
    Optional<String> manifestKey,
    Optional<Failure> failure,
    Instant createdAt,
    Instant updatedAt,
    Instant expiresAt) {

  /** Which worker holds a RUNNING job, and until when. */
  public record Lease(String owner, Instant expiresAt) {
    public Lease {
      requireNonNull(owner, "owner is null");
      requireNonNull(expiresAt, "expiresAt is null");
      if (owner.isBlank() || owner.length() > 128) {
        throw new IllegalArgumentException("lease owner must be 1-128 characters");
      }
      expiresAt = expiresAt.truncatedTo(ChronoUnit.MILLIS);
    }
  }

  /** Why a job FAILED; the message is client-visible (no locations or secrets). */
  public record Failure(ErrorCode code, String message) {
    public Failure {
      requireNonNull(code, "code is null");
      requireNonNull(message, "message is null");
      if (message.length() > 2048) {
        message = message.substring(0, 2048);
      }
    }
  }

  public Job {
    requireNonNull(id, "id is null");
    requireNonNull(tenant, "tenant is null");
    requireNonNull(principal, "principal is null");
    requireNonNull(state, "state is null");
    requireNonNull(lease, "lease is null");
    requireNonNull(queryId, "queryId is null");
    requireNonNull(fingerprint, "fingerprint is null");
    requireNonNull(envelope, "envelope is null");
    requireNonNull(manifestKey, "manifestKey is null");
    requireNonNull(failure, "failure is null");
    requireNonNull(createdAt, "createdAt is null");
    requireNonNull(updatedAt, "updatedAt is null");
    requireNonNull(expiresAt, "expiresAt is null");
    if (!id.matches("[A-Za-z0-9_-]{1,64}")) {
      throw new IllegalArgumentException("job id must be 1-64 of [A-Za-z0-9_-]");
    }
    if (version < 1) {
      throw new IllegalArgumentException("version must be >= 1: " + version);
    }
    if (attempt < 0) {
      throw new IllegalArgumentException("attempt must be >= 0: " + attempt);
    }
    if (!(progress >= 0 && progress <= 1)) {
      throw new IllegalArgumentException("progress must be in [0, 1]: " + progress);
    }
    if (state == JobState.RUNNING && (lease.isEmpty() || queryId.isEmpty())) {
      throw new IllegalArgumentException("a RUNNING job needs a lease and a query id");
    }
    if ((state == JobState.SUCCEEDED) != manifestKey.isPresent()) {
      throw new IllegalArgumentException("exactly a SUCCEEDED job has a manifest key");
    }
    if ((state == JobState.FAILED) != failure.isPresent()) {
      throw new IllegalArgumentException("exactly a FAILED job has a failure");
    }
    envelope = envelope.clone();
    // stores keep epoch milliseconds; truncating here makes a round trip compare equal
    createdAt = createdAt.truncatedTo(ChronoUnit.MILLIS);
    updatedAt = updatedAt.truncatedTo(ChronoUnit.MILLIS);
    expiresAt = expiresAt.truncatedTo(ChronoUnit.MILLIS);
  }

  /** A new PENDING job at version 1. */
  public static Job pending(
      String id,
      String tenant,
      String principal,
      String fingerprint,
      byte[] envelope,
      Instant now,
      Instant expiresAt) {
    return new Job(
        id,
        tenant,
        principal,
        JobState.PENDING,
        1,
        Optional.empty(),
        0,
        Optional.empty(),
        fingerprint,
        envelope,
        0,
        0,
        Optional.empty(),
        Optional.empty(),
        now,
        now,
        expiresAt);
  }

  @Override
  public byte[] envelope() {
    return envelope.clone();
  }

  /** Whether a worker may claim this job at {@code now}: PENDING, or RUNNING with a dead lease. */
  public boolean claimable(Instant now) {
    return state == JobState.PENDING
        || (state == JobState.RUNNING && lease.orElseThrow().expiresAt().isBefore(now));
  }

  public boolean expired(Instant now) {
    return !expiresAt.isAfter(now);
  }

  /** Claims the job for {@code owner}: RUNNING, attempt + 1, a fresh result directory. */
  public Job claim(String owner, Instant leaseUntil, String newQueryId, Instant now) {
    return new Job(
        id,
        tenant,
        principal,
        JobState.RUNNING,
        version + 1,
        Optional.of(new Lease(owner, leaseUntil)),
        attempt + 1,
        Optional.of(newQueryId),
        fingerprint,
        envelope,
        0,
        0,
        Optional.empty(),
        Optional.empty(),
        createdAt,
        now,
        expiresAt);
  }

  /** Extends the lease and records progress. */
  public Job renew(Instant leaseUntil, long rows, Instant now) {
    Lease current = lease.orElseThrow(() -> new IllegalStateException("job has no lease"));
    return new Job(
        id,
        tenant,
        principal,
        state,
        version + 1,
        Optional.of(new Lease(current.owner(), leaseUntil)),
        attempt,
        queryId,
        fingerprint,
        envelope,
        progress,
        rows,
        manifestKey,
        failure,
        createdAt,
        now,
        expiresAt);
  }

  /**
   * A claimed job handed over to the child jobs of its splits (durable fan-out): back to PENDING,
   * so it holds no running place while they run, keeping its attempt and query id (its result
   * directory), with {@code owner} as the lease that marks it; {@code progress} and {@code rows}
   * are its children's so far. The lease's expiry is unused (the mark never expires).
   */
  public Job awaitSplits(String owner, double progress, long rows, Instant now) {
    if (queryId.isEmpty()) {
      throw new IllegalStateException("job " + id + " was never claimed");
    }
    return new Job(
        id,
        tenant,
        principal,
        JobState.PENDING,
        version + 1,
        Optional.of(new Lease(owner, expiresAt)),
        attempt,
        queryId,
        fingerprint,
        envelope,
        progress,
        rows,
        Optional.empty(),
        Optional.empty(),
        createdAt,
        now,
        expiresAt);
  }

  /** Hands the job back to the queue after a transient failure. */
  public Job release(Instant now) {
    return new Job(
        id,
        tenant,
        principal,
        JobState.PENDING,
        version + 1,
        Optional.empty(),
        attempt,
        Optional.empty(),
        fingerprint,
        envelope,
        0,
        0,
        Optional.empty(),
        Optional.empty(),
        createdAt,
        now,
        expiresAt);
  }

  public Job succeed(String manifest, long rows, Instant now) {
    return terminal(JobState.SUCCEEDED, Optional.of(manifest), Optional.empty(), 1, rows, now);
  }

  /**
   * The terminal record of an expired, unfinished job: FAILED {@code DEADLINE_EXCEEDED}, written by
   * whoever finds it first (a worker's delivery, or a store freeing the job's places).
   */
  public Job expire(Instant now) {
    return fail(
        ErrorCode.DEADLINE_EXCEEDED,
        state == JobState.PENDING
            ? "The job expired before it could run"
            : "The job expired before it finished",
        now);
  }

  public Job fail(ErrorCode code, String message, Instant now) {
    return terminal(
        JobState.FAILED,
        Optional.empty(),
        Optional.of(new Failure(code, message)),
        progress,
        rowsWritten,
        now);
  }

  public Job cancel(Instant now) {
    return terminal(JobState.CANCELLED, Optional.empty(), Optional.empty(), progress, 0, now);
  }

  private Job terminal(
      JobState to,
      Optional<String> manifest,
      Optional<Failure> why,
      double newProgress,
      long rows,
      Instant now) {
    if (state.terminal()) {
      throw new IllegalStateException("job " + id + " is already " + state);
    }
    return new Job(
        id,
        tenant,
        principal,
        to,
        version + 1,
        lease,
        attempt,
        queryId,
        fingerprint,
        envelope,
        newProgress,
        rows,
        manifest,
        why,
        createdAt,
        now,
        expiresAt);
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof Job j
        && id.equals(j.id)
        && tenant.equals(j.tenant)
        && principal.equals(j.principal)
        && state == j.state
        && version == j.version
        && lease.equals(j.lease)
        && attempt == j.attempt
        && queryId.equals(j.queryId)
        && fingerprint.equals(j.fingerprint)
        && Arrays.equals(envelope, j.envelope)
        && Double.compare(progress, j.progress) == 0
        && rowsWritten == j.rowsWritten
        && manifestKey.equals(j.manifestKey)
        && failure.equals(j.failure)
        && createdAt.equals(j.createdAt)
        && updatedAt.equals(j.updatedAt)
        && expiresAt.equals(j.expiresAt);
  }

  @Override
  public int hashCode() {
    return java.util.Objects.hash(id, version, state);
  }

  @Override
  public String toString() {
    return "Job[id="
        + id
        + ", tenant="
        + tenant
        + ", state="
        + state
        + ", version="
        + version
        + ", attempt="
        + attempt
        + ", lease="
        + lease
        + "]";
  }
}
