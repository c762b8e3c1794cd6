package dev.lake.durable;

import static java.util.Objects.requireNonNull;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.lake.core.AdmittedQuery;
import dev.lake.core.ErrorCode;
import dev.lake.core.LakeException;
import dev.lake.core.ObjectStore;
import dev.lake.core.Principal;
import dev.lake.core.SnapshotSet;
import dev.lake.core.job.DurableConfig;
import dev.lake.core.job.Job;
import dev.lake.core.job.JobLimits;
import dev.lake.core.job.JobQueue;
import dev.lake.core.job.JobState;
import dev.lake.core.job.JobStatus;
import dev.lake.core.job.JobStatus.CancelOutcome;
import dev.lake.core.job.JobStore;
import dev.lake.core.job.ParquetCodec;
import dev.lake.core.job.ResultFormat;
import dev.lake.core.job.ResultLayout;
import dev.lake.core.ticket.TicketKind;
import dev.lake.core.ticket.TicketSealer;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.function.Consumer;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.ipc.ArrowReader;
import org.apache.arrow.vector.types.pojo.Schema;

/**
 * The durable tier as the front door sees it: submit, poll, cancel, download. Callers pass already
 * admitted, authorized and resolved statements (the same path as GetFlightInfo); this service
 * speaks no Flight types, so the producer only translates. Jobs (submission, status, cancel) and
 * who may see them are decided here; a succeeded job's published result (manifest, part tickets,
 * opening one part) is {@link ResultParts}'s.
 *
 * <p>Identity: a poll descriptor or part ticket only opens for the principal it was sealed for, and
 * a job of another principal answers exactly like a job that does not exist.
 */
public final class DurableQueries {
  private static final int CAS_ATTEMPTS = 8;

  /** A resend re-enqueues a job that is still PENDING this long after its last change. */
  static final Duration REQUEUE_AFTER = Duration.ofMinutes(1);

  private final JobStore jobs;
  private final JobQueue queue;
  private final TicketSealer tickets;
  private final EnvelopeSealer envelopes;
  private final ResultParts results;
  private final DurableConfig config;
  private final Clock clock;

  /**
   * @param layout where results live and their bounds: the same record the workers write with
   * @param parquet decodes Parquet parts on download; without it they fail {@code UNSUPPORTED}
   */
  public DurableQueries(
      JobStore jobs,
      JobQueue queue,
      ObjectStore objects,
      TicketSealer tickets,
      EnvelopeSealer envelopes,
      DurableConfig config,
      ResultLayout layout,
      Clock clock,
      Optional<ParquetCodec> parquet) {
    this.jobs = requireNonNull(jobs, "jobs is null");
    this.queue = requireNonNull(queue, "queue is null");
    this.tickets = requireNonNull(tickets, "tickets is null");
    this.envelopes = requireNonNull(envelopes, "envelopes is null");
    this.config = requireNonNull(config, "config is null");
    this.clock = requireNonNull(clock, "clock is null");
    this.results =
        new ResultParts(
            objects,
            tickets,
            requireNonNull(layout, "layout is null").bounds(),
            config.partTicketTtl(),
            parquet);
  }

  /**
   * Creates the job for an admitted statement (or finds the one a resend created) and enqueues it.
   *
   * @param submissionId the client's {@link SubmissionIds#HEADER} value, if sent
   * @param plannedSchema the schema GetFlightInfo would publish, shown until the result exists
   * @param format how the result is stored; part of the job's identity (see {@link SubmissionIds})
   */
  public JobStatus submit(
      Principal principal,
      AdmittedQuery query,
      List<Object> parameters,
      SnapshotSet snapshots,
      Schema plannedSchema,
      Optional<String> submissionId,
      ResultFormat format) {
    requireNonNull(principal, "principal is null");
    requireNonNull(query, "query is null");
    requireNonNull(parameters, "parameters is null");
    requireNonNull(snapshots, "snapshots is null");
    requireNonNull(plannedSchema, "plannedSchema is null");
    requireNonNull(format, "format is null");
    String submission =
        SubmissionIds.resolve(submissionId, principal, query.sql(), parameters, snapshots, format);
    String jobId = SubmissionIds.jobId(principal.tenant(), principal.id(), submission);
    String fingerprint =
        SubmissionIds.fingerprint(query.kind().name(), query.sql(), parameters, snapshots, format);
    JobEnvelope envelope =
        new JobEnvelope(
            query.sql(),
            query.kind(),
            parameters,
            snapshots,
            principal,
            plannedSchema.toJson(),
            format);
    Instant now = clock.instant();
    Job fresh =
        Job.pending(
            jobId,
            principal.tenant(),
            principal.id(),
            fingerprint,
            envelopes.seal(jobId, envelope),
            now,
            now.plus(config.jobTtl()));
    Started started = create(fresh, now);
    Job job = started.job();
    if (!job.fingerprint().equals(fingerprint)) {
      throw new LakeException(
          ErrorCode.INVALID_ARGUMENT,
          "Submission id was already used for a different statement; choose a new "
              + SubmissionIds.HEADER);
    }
    if (job.state() == JobState.PENDING
        && (started.byThisCall() || !job.updatedAt().isAfter(now.minus(REQUEUE_AFTER)))) {
      // sent when this call created or restarted the job; a resend or re-poll of a job that is
      // merely waiting sends nothing, except to heal a lost enqueue once it waited REQUEUE_AFTER
      queue.send(job.id(), job.tenant(), Duration.ZERO);
    }
    return status(principal, job);
  }

  /** The job's current status; see the class comment for identity rules. */
  public JobStatus poll(Principal principal, byte[] descriptor) {
    return status(principal, load(principal, descriptor).orElseThrow(DurableQueries::unknownJob));
  }

  /**
   * Polls until the job is done or {@code budget} passed (backing off 25 ms to 500 ms). Serves
   * long-polling PollFlightInfo and the GetFlightInfo wait budget of clients that never poll.
   */
  public JobStatus await(Principal principal, byte[] descriptor, Duration budget) {
    long deadline = System.nanoTime() + budget.toNanos();
    long sleep = 25;
    while (true) {
      Job job = load(principal, descriptor).orElseThrow(DurableQueries::unknownJob);
      JobStatus status = status(principal, job);
      long left = (deadline - System.nanoTime()) / 1_000_000;
      if (status.done() || left <= 0) {
        return status;
      }
      try {
        // returns early when the store sees the job change (embedded store); else backs off
        jobs.awaitChange(job.id(), job.version(), Duration.ofMillis(Math.min(sleep, left)));
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new LakeException(ErrorCode.CANCELLED, "Waiting for the query was interrupted");
      }
      sleep = Math.min(sleep * 2, 500);
    }
  }

  /** Cancels the job; a running worker notices at its next lease renewal. */
  public CancelOutcome cancel(Principal principal, byte[] descriptor) {
    Optional<Job> found = load(principal, descriptor);
    for (int i = 0; i < CAS_ATTEMPTS && found.isPresent(); i++) {
      Job job = found.get();
      switch (job.state()) {
        case CANCELLED:
          return CancelOutcome.CANCELLED;
        case SUCCEEDED:
        case FAILED:
          return CancelOutcome.NOT_CANCELLABLE;
        default:
          break;
      }
      JobStore.CasResult result = jobs.compareAndSet(job.version(), job.cancel(clock.instant()));
      if (result.applied()) {
        return job.state() == JobState.RUNNING ? CancelOutcome.CANCELLING : CancelOutcome.CANCELLED;
      }
      found = Optional.of(result.current());
    }
    if (found.isEmpty()) {
      return CancelOutcome.NOT_FOUND;
    }
    throw new LakeException(
        ErrorCode.EXTERNAL_UNAVAILABLE, "The job changed too often to cancel; try again");
  }

  /** Opens exactly the part a RESULT_PART ticket names; the caller closes the reader. */
  public ArrowReader openPart(Principal principal, byte[] ticket, BufferAllocator allocator) {
    return openPart(principal, ticket, allocator, jobId -> {});
  }

  /**
   * As {@link #openPart(Principal, byte[], BufferAllocator)}, telling {@code jobSeen} the ticket's
   * job id (for the audit trail) as soon as the ticket unsealed, so a download refused afterwards
   * (job gone, grant revoked, part replaced) is still attributed to its job. The ticket is unsealed
   * once per download.
   */
  public ArrowReader openPart(
      Principal principal, byte[] ticket, BufferAllocator allocator, Consumer<String> jobSeen) {
    ResultParts.Claims claims = results.claims(principal, ticket);
    jobSeen.accept(claims.jobId());
    // grants are re-checked at download too: a ticket issued before a revocation stops working
    Job job = jobs.find(claims.jobId()).orElseThrow(DurableQueries::unknownJob);
    checkGranted(principal, job);
    return results.open(claims, job, allocator);
  }

  /** The job of a submission, and whether this call created or restarted it. */
  private record Started(Job job, boolean byThisCall) {}

  private Started create(Job fresh, Instant now) {
    // the queued bound holds across replicas: the store counts and checks atomically
    JobLimits limits = JobLimits.active(config.maxQueuedPerTenant());
    JobStore.CreateResult created = jobs.createIfAbsent(fresh, limits);
    if (created instanceof JobStore.CreateResult.Refused refused) {
      throw tooManyQueued(refused.reached());
    }
    if (created instanceof JobStore.CreateResult.Created c) {
      return new Started(c.job(), true);
    }
    Job job = ((JobStore.CreateResult.Existing) created).job();
    boolean rerun =
        (job.state() == JobState.CANCELLED || job.state() == JobState.FAILED)
            && job.fingerprint().equals(fresh.fingerprint());
    if (!job.expired(now) && !rerun) {
      return new Started(job, false);
    }
    // An expired record the store has not reaped yet, or a cancelled/failed run of the same
    // statement that the client submits again: start over under the same id. (Otherwise a
    // cancelled statement would answer "cancelled" to every rerun until it expires.) A worker
    // still finishing the old attempt loses its next CAS and cleans up its own query id.
    Job restarted =
        new Job(
            fresh.id(),
            fresh.tenant(),
            fresh.principal(),
            JobState.PENDING,
            job.version() + 1,
            Optional.empty(),
            0,
            Optional.empty(),
            fresh.fingerprint(),
            fresh.envelope(),
            0,
            0,
            Optional.empty(),
            Optional.empty(),
            now,
            now,
            fresh.expiresAt());
    JobStore.CasResult result = jobs.compareAndSet(job.version(), restarted, limits);
    if (result instanceof JobStore.CasResult.Refused refused) {
      throw tooManyQueued(refused.reached());
    }
    return new Started(result.current(), result.applied());
  }

  private static LakeException tooManyQueued(JobLimits.Reached reached) {
    return new LakeException(
        ErrorCode.RESOURCE_EXHAUSTED,
        "Tenant "
            + reached.tenant()
            + " already has "
            + reached.held()
            + " durable queries queued or running, its bound of "
            + reached.max()
            + " (--durable-max-queued-per-tenant, LAKE_DURABLE_MAX_QUEUED_PER_TENANT);"
            + " wait for some to finish or cancel some, or ask the operator to raise the bound");
  }

  private Optional<Job> load(Principal principal, byte[] descriptor) {
    requireNonNull(principal, "principal is null");
    requireNonNull(descriptor, "descriptor is null");
    JsonNode claims;
    try {
      claims = tickets.unseal(descriptor, TicketKind.JOB, principal);
    } catch (LakeException e) {
      if (e.code() == ErrorCode.TICKET_FOREIGN) {
        return Optional.empty();
      }
      throw e;
    }
    String id = claims.path("job").asText("");
    if (id.isEmpty()) {
      throw new LakeException(ErrorCode.TICKET_INVALID, "Poll descriptor is malformed");
    }
    Optional<Job> job =
        jobs.find(id)
            .filter(
                j -> j.tenant().equals(principal.tenant()) && j.principal().equals(principal.id()))
            .filter(j -> !j.expired(clock.instant()));
    job.ifPresent(j -> checkGranted(principal, j));
    return job;
  }

  /**
   * Refuses a job whose tables the caller's current grants no longer all cover. The worker checks
   * the grants sealed at submission; polls and part downloads check the grants the caller holds
   * now, so a revoked grant stops both. The caller owns the job (its sealed descriptor or ticket
   * says so), so PERMISSION_DENIED tells it nothing it did not know.
   */
  private void checkGranted(Principal principal, Job job) {
    if (!envelopes.open(job).snapshots().snapshots().keySet().stream()
        .allMatch(principal::mayRead)) {
      throw new LakeException(
          ErrorCode.PERMISSION_DENIED,
          "Your grants no longer cover every table this query reads; its result is withheld");
    }
  }

  private JobStatus status(Principal principal, Job job) {
    Instant now = clock.instant();
    Duration left = Duration.between(now, job.expiresAt());
    if (left.isNegative() || left.isZero()) {
      throw unknownJob();
    }
    ObjectNode payload = JsonNodeFactory.instance.objectNode().put("job", job.id());
    byte[] descriptor = tickets.seal(TicketKind.JOB, principal, left, payload);
    if (job.state() != JobState.SUCCEEDED) {
      return new JobStatus(
          job.id(),
          job.state(),
          descriptor,
          job.expiresAt(),
          envelopes.open(job).schema(),
          job.progress(),
          List.of(),
          job.failure());
    }
    return results.status(principal, job, descriptor, now);
  }

  static LakeException unknownJob() {
    return new LakeException(ErrorCode.NOT_FOUND, "Unknown or expired job; submit the query again");
  }
}
