package dev.lake.durable;

/** What the queue should do with the delivery that carried a job. */
public enum Outcome {
  /** The job is terminal (or gone): delete the message. */
  DONE,
  /** Another worker holds it, or it was handed back after a transient failure: redeliver later. */
  RETRY,
  /**
   * The execution lease is full: the job stays PENDING and is delivered again after the retry
   * delay, as a new message ({@code JobQueue.defer}) so that waiting never counts as a failed
   * receive.
   */
  DEFER
}
