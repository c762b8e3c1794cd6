package dev.lake.durable;

import static java.util.Objects.requireNonNull;

import com.fasterxml.jackson.databind.JsonNode;
import dev.lake.core.ErrorCode;
import dev.lake.core.Json;
import dev.lake.core.KeyService;
import dev.lake.core.LakeException;
import dev.lake.core.Principal;
import dev.lake.core.job.Job;
import dev.lake.core.ticket.SealedEnvelope;
import dev.lake.core.ticket.TicketKind;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;

/**
 * Seals {@link JobEnvelope}s (compact JSON) into the one {@link SealedEnvelope} format, kind {@link
 * TicketKind#JOB_ENVELOPE}. The job id, tenant and principal are associated data, so an envelope
 * copied into another job record fails to open.
 *
 * <p>Opening needs the sealing key to still be in the key ring: the ring must outlive pending jobs
 * (see docs/async.md); a job whose key rotated out fails with {@code INTERNAL}. Envelopes of the
 * previous release's own "LJ" format fail closed, telling the client to submit again.
 */
public final class EnvelopeSealer {
  private final SealedEnvelope envelope;

  public EnvelopeSealer(KeyService keys) {
    this.envelope = new SealedEnvelope(requireNonNull(keys, "keys is null"));
  }

  public byte[] seal(String jobId, JobEnvelope job) {
    byte[] plaintext;
    try {
      plaintext = Json.mapper().writeValueAsBytes(job.toJson());
    } catch (IOException e) {
      throw new UncheckedIOException("cannot encode job envelope", e);
    }
    Principal principal = job.principal();
    return envelope.seal(
        TicketKind.JOB_ENVELOPE, context(jobId, principal.tenant(), principal.id()), plaintext);
  }

  /** Opens the envelope of {@code job}, failing closed. */
  public JobEnvelope open(Job job) {
    byte[] bytes = job.envelope();
    if (bytes.length >= 2 && bytes[0] == 'L' && bytes[1] == 'J') {
      throw broken("it was sealed by an older release (format LJ); submit the statement again");
    }
    byte[] plaintext;
    try {
      plaintext =
          envelope.open(
              bytes, TicketKind.JOB_ENVELOPE, context(job.id(), job.tenant(), job.principal()));
    } catch (SealedEnvelope.Unopenable e) {
      throw broken(
          switch (e.failure()) {
            case BAD_LENGTH, NOT_AN_ENVELOPE, KIND -> "unknown envelope format";
            case VERSION ->
                "envelope version "
                    + e.version()
                    + " is not supported (expects "
                    + SealedEnvelope.VERSION
                    + "); submit the statement again";
            case BAD_HEADER -> "bad envelope header";
            case UNKNOWN_KEY -> "its key rotated out of the key ring";
            case INTEGRITY -> "integrity check failed";
          });
    }
    try {
      JsonNode node = Json.mapper().readTree(plaintext);
      return JobEnvelope.fromJson(node);
    } catch (IOException | RuntimeException e) {
      throw broken("unreadable envelope");
    }
  }

  /** The associated data binding an envelope to its job record. */
  private static byte[] context(String jobId, String tenant, String principal) {
    return (jobId + "\0" + tenant + "\0" + principal + "\0").getBytes(StandardCharsets.UTF_8);
  }

  private static LakeException broken(String why) {
    return new LakeException(ErrorCode.INTERNAL, "Job envelope cannot be opened: " + why);
  }
}
