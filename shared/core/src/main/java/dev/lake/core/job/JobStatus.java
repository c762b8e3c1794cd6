package dev.lake.core.job;

import static java.util.Objects.requireNonNull;

import dev.lake.core.LakeException;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import org.apache.arrow.vector.types.pojo.Schema;

/**
 * What a submit or poll answers, free of Flight types. The producer maps it to a {@code PollInfo}:
 * {@code descriptor} becomes the next {@code flight_descriptor} (unset once {@link #done()}),
 * {@code parts} become one endpoint each, {@code expiresAt} the expiration time.
 *
 * @param descriptor the sealed, identity-bound poll/cancel capability (a JOB ticket)
 * @param expiresAt when the job (and the descriptor) expire
 * @param schema the planned schema, or the result's once SUCCEEDED
 * @param progress in [0, 1]
 * @param parts one sealed RESULT_PART ticket per part, in order, only when SUCCEEDED
 * @param failure the code and client-visible message, only when FAILED
 */
public record JobStatus(
    String jobId,
    JobState state,
    byte[] descriptor,
    Instant expiresAt,
    Schema schema,
    double progress,
    List<PartTicket> parts,
    Optional<Job.Failure> failure) {
  public JobStatus {
    requireNonNull(jobId, "jobId is null");
    requireNonNull(state, "state is null");
    requireNonNull(descriptor, "descriptor is null");
    requireNonNull(expiresAt, "expiresAt is null");
    requireNonNull(schema, "schema is null");
    parts = List.copyOf(requireNonNull(parts, "parts is null"));
    requireNonNull(failure, "failure is null");
    descriptor = descriptor.clone();
  }

  @Override
  public byte[] descriptor() {
    return descriptor.clone();
  }

  public boolean done() {
    return state.terminal();
  }

  /** The failure as the exception the producer should raise, for FAILED and CANCELLED jobs. */
  public Optional<LakeException> error() {
    if (state == JobState.CANCELLED) {
      return Optional.of(
          new LakeException(dev.lake.core.ErrorCode.CANCELLED, "The query was cancelled"));
    }
    return failure.map(f -> new LakeException(f.code(), f.message()));
  }

  /** One downloadable part: a sealed ticket for DoGet and its exact size. */
  public record PartTicket(int index, byte[] ticket, long rows, long bytes, Instant expiresAt) {
    public PartTicket {
      requireNonNull(ticket, "ticket is null");
      requireNonNull(expiresAt, "expiresAt is null");
      ticket = ticket.clone();
    }

    @Override
    public byte[] ticket() {
      return ticket.clone();
    }
  }

  /** Answer of a cancel request, mirroring Flight's {@code CancelStatus}. */
  public enum CancelOutcome {
    /** The job was pending or already cancelled: nothing runs any more. */
    CANCELLED,
    /** A worker is running it; it stops and cleans up at its next lease renewal. */
    CANCELLING,
    /** It already finished (SUCCEEDED or FAILED). */
    NOT_CANCELLABLE,
    /** No such job for this principal (the same answer for another principal's job). */
    NOT_FOUND
  }
}
