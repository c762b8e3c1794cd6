package dev.lake.core.job;

/**
 * The life cycle of a durable job. PENDING → RUNNING (under a lease) → SUCCEEDED | FAILED |
 * CANCELLED; a RUNNING job whose lease expired may be claimed again (RUNNING → RUNNING, attempt +
 * 1), and a worker that hits a transient failure may hand the job back (RUNNING → PENDING). Every
 * transition is a compare-and-set on the record version.
 */
public enum JobState {
  PENDING,
  RUNNING,
  SUCCEEDED,
  FAILED,
  CANCELLED;

  /** Whether no further transition is possible. */
  public boolean terminal() {
    return this == SUCCEEDED || this == FAILED || this == CANCELLED;
  }
}
