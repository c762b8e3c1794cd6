package dev.lake.durable;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.lake.core.AdmittedQuery;
import dev.lake.core.ErrorCode;
import dev.lake.core.LakeException;
import dev.lake.core.Principal;
import dev.lake.core.SnapshotSet;
import dev.lake.core.TableRef;
import dev.lake.core.job.DurableConfig;
import dev.lake.core.job.Job;
import dev.lake.core.job.JobState;
import dev.lake.core.job.JobStatus;
import dev.lake.core.job.JobStatus.CancelOutcome;
import dev.lake.core.job.PartRef;
import dev.lake.core.job.ResultConfig;
import dev.lake.core.job.ResultFormat;
import dev.lake.core.job.ResultLayout;
import dev.lake.core.job.ResultManifest;
import dev.lake.core.local.FileJobStore;
import dev.lake.core.local.InProcessJobQueue;
import dev.lake.core.local.LocalKeyRing;
import dev.lake.core.local.LocalObjectStore;
import dev.lake.core.testing.MutableClock;
import dev.lake.core.testing.TestArrow;
import dev.lake.core.testing.TestSnapshot;
import dev.lake.core.ticket.TicketConfig;
import dev.lake.core.ticket.TicketSealer;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.ipc.ArrowReader;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class DurableQueriesTest {
  private static final TableRef T = TableRef.parse("lake.sales.orders");
  private static final Principal ALICE = Principal.of("acme", "alice", Set.of("lake.sales"));
  private static final Principal BOB = Principal.of("acme", "bob", Set.of("lake.sales"));
  private static final SnapshotSet SNAPSHOTS =
      new SnapshotSet(Map.of(T, new TestSnapshot("/data/orders", 3)));
  private static final AdmittedQuery QUERY =
      AdmittedQuery.of("SELECT * FROM lake.sales.orders", AdmittedQuery.Kind.SELECT, List.of(T));

  @TempDir Path dir;
  private final MutableClock clock = new MutableClock(Instant.parse("2030-01-01T00:00:00Z"));
  private final BufferAllocator allocator = new RootAllocator();
  private FileJobStore jobs;
  private InProcessJobQueue queue;
  private LocalObjectStore objects;
  private EnvelopeSealer envelopes;
  private DurableQueries durable;

  @BeforeEach
  void setUp() {
    jobs = new FileJobStore(dir.resolve("jobs"));
    queue = new InProcessJobQueue(Duration.ofSeconds(30), clock);
    objects = new LocalObjectStore(dir.resolve("objects"));
    LocalKeyRing keys = LocalKeyRing.ephemeral();
    envelopes = new EnvelopeSealer(keys);
    durable =
        new DurableQueries(
            jobs,
            queue,
            objects,
            new TicketSealer(keys, TicketConfig.defaults(), clock),
            envelopes,
            DurableConfig.defaults(),
            ResultLayout.defaults(),
            clock,
            Optional.empty());
  }

  @AfterEach
  void tearDown() {
    allocator.close();
  }

  private JobStatus submit(Principal p, Optional<String> submissionId) {
    return durable.submit(
        p, QUERY, List.of(42L), SNAPSHOTS, TestArrow.SCHEMA, submissionId, ResultFormat.ARROW);
  }

  @Test
  void submit_resentWithSameSubmissionId_landsOnTheSameJob() {
    // GIVEN a submitted job
    JobStatus first = submit(ALICE, Optional.of("sub-1"));
    // WHEN the same submission is resent (its response was lost)
    JobStatus second = submit(ALICE, Optional.of("sub-1"));
    // THEN both answers name one PENDING job, enqueued exactly once
    assertThat(second.jobId()).isEqualTo(first.jobId());
    assertThat(second.state()).isEqualTo(JobState.PENDING);
    assertThat(jobs.ids()).containsExactly(first.jobId());
    assertThat(queue.size()).isEqualTo(1);
    // AND a resend after the job waited REQUEUE_AFTER heals a lost message
    queue.ack(queue.receive(1, Duration.ZERO).get(0)); // the message is lost
    clock.advance(DurableQueries.REQUEUE_AFTER.plusSeconds(1));
    submit(ALICE, Optional.of("sub-1"));
    assertThat(queue.size()).isEqualTo(1);
    assertThat(second.schema()).isEqualTo(TestArrow.SCHEMA);
  }

  @Test
  void poll_andPartDownload_stop_whenTheGrantIsRevoked() throws IOException {
    // GIVEN a finished job of alice
    JobStatus submitted = submit(ALICE, Optional.of("sub-revoke"));
    complete(submitted.jobId(), 1, 5);
    JobStatus done = durable.poll(ALICE, submitted.descriptor());
    byte[] part = done.parts().get(0).ticket();
    // WHEN alice's grant on lake.sales is revoked (same tenant and id, other grants)
    Principal revoked = Principal.of("acme", "alice", Set.of("lake.other"));
    // THEN polling and downloading are refused as PERMISSION_DENIED (it is her own job)
    assertThat(catchLake(() -> durable.poll(revoked, submitted.descriptor())).code())
        .isEqualTo(ErrorCode.PERMISSION_DENIED);
    assertThat(catchLake(() -> durable.openPart(revoked, part, allocator)))
        .hasMessage(
            "Your grants no longer cover every table this query reads; its result is withheld")
        .extracting(LakeException::code)
        .isEqualTo(ErrorCode.PERMISSION_DENIED);
    // AND the unrevoked principal still downloads
    try (ArrowReader reader = durable.openPart(ALICE, part, allocator)) {
      assertThat(reader.loadNextBatch()).isTrue();
    }
  }

  @Test
  void openPart_namesTheTicketsJob_evenWhenTheDownloadIsThenRefused_andNeverForABadTicket() {
    // GIVEN a finished job of alice and one of its part tickets
    JobStatus submitted = submit(ALICE, Optional.of("sub-audit"));
    complete(submitted.jobId(), 1, 5);
    byte[] part = durable.poll(ALICE, submitted.descriptor()).parts().get(0).ticket();
    List<String> seen = new ArrayList<>();
    // WHEN a principal whose grant was revoked presents it
    Principal revoked = Principal.of("acme", "alice", Set.of("lake.other"));
    LakeException refused = catchLake(() -> durable.openPart(revoked, part, allocator, seen::add));
    // THEN the download is refused after the ticket named its job (the audit line keeps it)
    assertThat(refused.code()).isEqualTo(ErrorCode.PERMISSION_DENIED);
    assertThat(seen).containsExactly(submitted.jobId());
    // AND a ticket that does not unseal (another principal's) names no job and fails closed
    seen.clear();
    assertThat(catchLake(() -> durable.openPart(BOB, part, allocator, seen::add)).code())
        .isEqualTo(ErrorCode.TICKET_FOREIGN);
    assertThat(seen).isEmpty();
  }

  @Test
  void submit_beyondTheTenantsQueuedBound_isResourceExhausted_namingBoundCountAndFlag() {
    // GIVEN a bound of two queued jobs per tenant, and alice's two pending jobs
    durable =
        new DurableQueries(
            jobs,
            queue,
            objects,
            new TicketSealer(LocalKeyRing.ephemeral(), TicketConfig.defaults(), clock),
            envelopes,
            DurableConfig.defaults().withMaxQueuedPerTenant(2),
            ResultLayout.defaults(),
            clock,
            Optional.empty());
    JobStatus first = submit(ALICE, Optional.of("q-1"));
    submit(ALICE, Optional.of("q-2"));
    // WHEN bob of the same tenant submits a third, and alice resends her first
    LakeException refused = catchLake(() -> submit(BOB, Optional.of("q-3")));
    JobStatus resent = submit(ALICE, Optional.of("q-1"));
    // THEN the third is RESOURCE_EXHAUSTED with the count, the bound and how to raise it
    assertThat(refused.code()).isEqualTo(ErrorCode.RESOURCE_EXHAUSTED);
    assertThat(refused.getMessage())
        .isEqualTo(
            "Tenant acme already has 2 durable queries queued or running, its bound of 2"
                + " (--durable-max-queued-per-tenant, LAKE_DURABLE_MAX_QUEUED_PER_TENANT); wait"
                + " for some to finish or cancel some, or ask the operator to raise the bound");
    assertThat(jobs.ids()).hasSize(2);
    // AND a resend of a counted job is answered; cancelling one frees a place
    assertThat(resent.jobId()).isEqualTo(first.jobId());
    durable.cancel(ALICE, first.descriptor());
    assertThat(submit(BOB, Optional.of("q-3")).state()).isEqualTo(JobState.PENDING);
  }

  @Test
  void submit_withoutSubmissionId_derivesAStableId_perPrincipal() {
    assertThat(submit(ALICE, Optional.empty()).jobId())
        .isEqualTo(submit(ALICE, Optional.empty()).jobId())
        .isNotEqualTo(submit(BOB, Optional.empty()).jobId());
  }

  @Test
  void submit_reusedIdForAnotherStatement_isRejected() {
    submit(ALICE, Optional.of("sub-2"));
    assertThatThrownBy(
            () ->
                durable.submit(
                    ALICE,
                    QUERY,
                    List.of(7L),
                    SNAPSHOTS,
                    TestArrow.SCHEMA,
                    Optional.of("sub-2"),
                    ResultFormat.ARROW))
        .isInstanceOf(LakeException.class)
        .hasMessage(
            "Submission id was already used for a different statement; choose a new"
                + " x-lake-submission-id");
  }

  @Test
  void poll_byAnotherPrincipal_answersExactlyLikeAnUnknownJob() {
    // GIVEN alice's job
    byte[] descriptor = submit(ALICE, Optional.empty()).descriptor();
    // WHEN bob polls with alice's descriptor, and alice polls a job that does not exist
    LakeException foreign = catchLake(() -> durable.poll(BOB, descriptor));
    JobStatus other = submit(BOB, Optional.of("x"));
    jobs.sweepExpired(clock.instant().plus(Duration.ofDays(2)));
    LakeException unknown = catchLake(() -> durable.poll(BOB, other.descriptor()));
    // THEN both answers are identical
    assertThat(foreign.code()).isEqualTo(ErrorCode.NOT_FOUND).isEqualTo(unknown.code());
    assertThat(foreign.getMessage())
        .isEqualTo(unknown.getMessage())
        .isEqualTo("Unknown or expired job; submit the query again");
    assertThat(durable.cancel(BOB, descriptor)).isEqualTo(CancelOutcome.NOT_FOUND);
  }

  @Test
  void poll_succeededJob_returnsOneTicketPerPart_thatOpenExactlyThatPart() throws IOException {
    // GIVEN a job a worker completed into 3 parts
    JobStatus submitted = submit(ALICE, Optional.empty());
    complete(submitted.jobId(), 3, 1_000);
    // WHEN alice polls
    JobStatus done = durable.poll(ALICE, submitted.descriptor());
    // THEN three tickets, each opening its part's rows
    assertThat(done.state()).isEqualTo(JobState.SUCCEEDED);
    assertThat(done.progress()).isEqualTo(1.0);
    assertThat(done.parts()).hasSize(3);
    assertThat(done.parts().get(0).expiresAt())
        .isEqualTo(clock.instant().plus(DurableConfig.DEFAULT_PART_TICKET_TTL));
    List<Long> ids = new ArrayList<>();
    for (JobStatus.PartTicket part : done.parts()) {
      ids.addAll(TestArrow.ids(durable.openPart(ALICE, part.ticket(), allocator)));
    }
    assertThat(ids).isEqualTo(TestArrow.range(3_000));
  }

  @Test
  void openPart_tamperedForeignOrExpiredTicket_failsClosed() {
    // GIVEN a part ticket of a completed job
    JobStatus submitted = submit(ALICE, Optional.empty());
    complete(submitted.jobId(), 1, 10);
    byte[] ticket = durable.poll(ALICE, submitted.descriptor()).parts().get(0).ticket();
    byte[] tampered = ticket.clone();
    tampered[tampered.length - 3] ^= 1;
    // THEN tampering, another principal, a descriptor as ticket and expiry all fail
    assertThat(catchLake(() -> durable.openPart(ALICE, tampered, allocator)).code())
        .isEqualTo(ErrorCode.TICKET_INVALID);
    assertThat(catchLake(() -> durable.openPart(BOB, ticket, allocator)).code())
        .isEqualTo(ErrorCode.TICKET_FOREIGN);
    assertThat(catchLake(() -> durable.openPart(ALICE, submitted.descriptor(), allocator)))
        .hasMessage("Ticket is not a result_part ticket");
    clock.advance(Duration.ofMinutes(20));
    assertThat(catchLake(() -> durable.openPart(ALICE, ticket, allocator)).code())
        .isEqualTo(ErrorCode.TICKET_EXPIRED);
  }

  @Test
  void cancel_answersPerState() {
    // GIVEN a pending, a running and a succeeded job
    JobStatus pending = submit(ALICE, Optional.of("p"));
    JobStatus running = submit(ALICE, Optional.of("r"));
    Job r = jobs.find(running.jobId()).orElseThrow();
    jobs.compareAndSet(1, r.claim("w", clock.instant().plusSeconds(60), "q", clock.instant()));
    JobStatus succeeded = submit(ALICE, Optional.of("s"));
    complete(succeeded.jobId(), 1, 1);
    // THEN
    assertThat(durable.cancel(ALICE, pending.descriptor())).isEqualTo(CancelOutcome.CANCELLED);
    assertThat(durable.cancel(ALICE, pending.descriptor())).isEqualTo(CancelOutcome.CANCELLED);
    assertThat(durable.cancel(ALICE, running.descriptor())).isEqualTo(CancelOutcome.CANCELLING);
    assertThat(durable.cancel(ALICE, succeeded.descriptor()))
        .isEqualTo(CancelOutcome.NOT_CANCELLABLE);
    assertThat(durable.poll(ALICE, running.descriptor()).error().orElseThrow().code())
        .isEqualTo(ErrorCode.CANCELLED);
  }

  @Test
  void submit_afterCancel_runsTheStatementAgain_underTheSameJob() {
    // GIVEN a statement whose job was cancelled
    JobStatus first = submit(ALICE, Optional.empty());
    durable.cancel(ALICE, first.descriptor());
    assertThat(durable.poll(ALICE, first.descriptor()).state()).isEqualTo(JobState.CANCELLED);
    // WHEN the client submits the same statement again
    JobStatus again = submit(ALICE, Optional.empty());
    // THEN the same job id is pending again and enqueued, rather than answering "cancelled"
    assertThat(again.jobId()).isEqualTo(first.jobId());
    assertThat(again.state()).isEqualTo(JobState.PENDING);
    assertThat(jobs.find(first.jobId()).orElseThrow().version()).isGreaterThan(2);
  }

  @Test
  void envelope_opensOnlyInItsOwnJob_andHoldsNoPlainSql() {
    JobStatus submitted = submit(ALICE, Optional.empty());
    Job job = jobs.find(submitted.jobId()).orElseThrow();
    assertThat(new String(job.envelope(), java.nio.charset.StandardCharsets.ISO_8859_1))
        .doesNotContain("SELECT")
        .doesNotContain("/data/orders");
    JobEnvelope envelope = envelopes.open(job);
    assertThat(envelope.query()).isEqualTo(QUERY);
    assertThat(envelope.parameters()).containsExactly(42L);
    Job moved =
        Job.pending(
            "j-other", "acme", "alice", "fp", job.envelope(), clock.instant(), job.expiresAt());
    assertThat(catchLake(() -> envelopes.open(moved)))
        .hasMessage("Job envelope cannot be opened: integrity check failed");
  }

  /** What a worker does: claim, write parts, publish the manifest, CAS to SUCCEEDED. */
  private void complete(String jobId, int batches, int rows) {
    Job job = jobs.find(jobId).orElseThrow();
    Instant now = clock.instant();
    Job running = job.claim("w", now.plusSeconds(60), "q-" + jobId, now);
    assertThat(jobs.compareAndSet(job.version(), running).applied()).isTrue();
    ResultConfig rc = new ResultConfig(1 << 30, rows, 1 << 20, rows, 1 << 20, Duration.ofHours(1));
    ResultWriter writer = new ResultWriter(objects, rc);
    String dirKey = ResultWriter.directory("results", "acme", running.queryId().orElseThrow());
    List<PartRef> parts;
    try (ArrowReader in = TestArrow.reader(allocator, batches, rows)) {
      parts = writer.writeParts(dirKey, in, (r, n) -> {});
    } catch (IOException e) {
      throw new AssertionError(e);
    }
    ResultManifest manifest =
        new ResultManifest(
            jobId,
            "acme",
            running.queryId().orElseThrow(),
            ResultManifest.FORMAT_ARROW_STREAM,
            TestArrow.SCHEMA.toJson(),
            parts,
            ResultManifest.STATE_COMPLETE,
            now,
            now.plus(Duration.ofHours(1)));
    assertThat(writer.publish(dirKey, manifest)).isTrue();
    assertThat(
            jobs.compareAndSet(
                    running.version(),
                    running.succeed(ResultWriter.manifestKey(dirKey), manifest.rows(), now))
                .applied())
        .isTrue();
  }

  private static LakeException catchLake(Runnable r) {
    try {
      r.run();
    } catch (LakeException e) {
      return e;
    }
    throw new AssertionError("expected a LakeException");
  }
}
