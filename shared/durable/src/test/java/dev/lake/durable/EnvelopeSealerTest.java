package dev.lake.durable;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.lake.core.AdmittedQuery;
import dev.lake.core.ErrorCode;
import dev.lake.core.LakeException;
import dev.lake.core.Principal;
import dev.lake.core.SnapshotSet;
import dev.lake.core.TableRef;
import dev.lake.core.job.Job;
import dev.lake.core.job.ResultFormat;
import dev.lake.core.local.LocalKeyRing;
import dev.lake.core.testing.TestSnapshot;
import dev.lake.core.ticket.SealedEnvelope;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

class EnvelopeSealerTest {
  private static final Principal ALICE = Principal.of("acme", "alice", Set.of("lake.sales"));
  private static final Instant NOW = Instant.parse("2030-01-01T00:00:00Z");
  private static final JobEnvelope ENVELOPE =
      new JobEnvelope(
          "SELECT * FROM lake.sales.orders",
          AdmittedQuery.Kind.SELECT,
          List.of(42L),
          new SnapshotSet(
              Map.of(TableRef.parse("lake.sales.orders"), new TestSnapshot("/data/orders", 3))),
          ALICE,
          "{\"fields\":[]}",
          ResultFormat.PARQUET);

  private final EnvelopeSealer sealer = new EnvelopeSealer(LocalKeyRing.ephemeral());

  private static Job job(String id, byte[] envelope) {
    return Job.pending("j-" + id, "acme", "alice", "fp", envelope, NOW, NOW.plusSeconds(3600));
  }

  @Test
  void seal_usesTheOneEnvelopeFormat_andOpensInItsJob() {
    // GIVEN an envelope sealed for job j-1
    byte[] sealed = sealer.seal("j-1", ENVELOPE);
    // THEN it carries the shared framing (magic, current version, kind JOB_ENVELOPE)
    assertThat(SealedEnvelope.looksSealed(sealed)).isTrue();
    assertThat(sealed[2]).isEqualTo((byte) SealedEnvelope.VERSION);
    assertThat(sealed[3]).isEqualTo((byte) 5);
    // AND it opens in its own job with the same content
    assertThat(sealer.open(job("1", sealed))).isEqualTo(ENVELOPE);
  }

  @Test
  void open_rejectsAnEnvelopeOfThePreviousLjFormat_withAClearMessage() {
    // GIVEN a job record written by the release that sealed job envelopes as "LJ" version 1
    byte[] sealed = sealer.seal("j-1", ENVELOPE);
    byte[] legacy = sealed.clone();
    legacy[1] = 'J';
    // WHEN a worker opens it THEN it fails closed and says what to do
    assertThatThrownBy(() -> sealer.open(job("1", legacy)))
        .isInstanceOf(LakeException.class)
        .hasMessage(
            "Job envelope cannot be opened: it was sealed by an older release (format LJ);"
                + " submit the statement again")
        .extracting(e -> ((LakeException) e).code())
        .isEqualTo(ErrorCode.INTERNAL);
  }

  @Test
  void open_rejectsAnotherEnvelopeVersion_namingIt() {
    // GIVEN bytes of the right framing but another version
    byte[] sealed = sealer.seal("j-1", ENVELOPE);
    sealed[2] = 1;
    // THEN the version is named
    assertThatThrownBy(() -> sealer.open(job("1", sealed)))
        .hasMessage(
            "Job envelope cannot be opened: envelope version 1 is not supported (expects 2);"
                + " submit the statement again");
  }
}
