package dev.lake.durable;

import static java.util.Objects.requireNonNull;

import dev.lake.core.Catalogs;
import dev.lake.core.ErrorCode;
import dev.lake.core.LakeException;
import dev.lake.core.ObjectStore;
import dev.lake.core.QueryEngine;
import dev.lake.core.job.Job;
import dev.lake.core.job.JobQueue;
import dev.lake.core.job.JobStore;
import dev.lake.core.job.ResultLayout;
import java.security.SecureRandom;
import java.time.Clock;
import java.time.Instant;
import java.util.Base64;
import java.util.Optional;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.function.Consumer;
import org.apache.arrow.memory.BufferAllocator;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Runs durable jobs, one delivery at a time, whatever delivered them (Lambda SQS batch, SQS
 * polling, in-process queue). Idempotent: the job store decides. A delivery of a terminal job is
 * acknowledged; a job another worker holds under a live lease is retried later; a PENDING job, or a
 * RUNNING one whose lease expired (its worker died), is claimed by compare-and-set (attempt + 1, a
 * fresh random result directory) within the execution lease ({@link WorkerConfig#maxRunning},
 * {@link WorkerConfig#maxRunningPerTenant}) and run by an {@link Attempt}; a full lease defers it.
 */
public final class JobProcessor implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(JobProcessor.class);

  final JobStore jobs;
  final ObjectStore objects;
  final EnvelopeSealer envelopes;
  final Catalogs catalogs;
  final QueryEngine engine;
  final BufferAllocator allocator;
  final WorkerConfig config;
  final ResultLayout layout;
  final Clock clock;
  final String workerId;
  final ScheduledExecutorService timers;

  /** Durable fan-out; null when this processor has no queue to send child jobs to. */
  final FanOut fanOut;

  private final SecureRandom random = new SecureRandom();

  /**
   * @param layout where results are written and their bounds: the same record the front door reads
   *     with
   */
  public JobProcessor(
      JobStore jobs,
      ObjectStore objects,
      EnvelopeSealer envelopes,
      Catalogs catalogs,
      QueryEngine engine,
      BufferAllocator allocator,
      WorkerConfig config,
      ResultLayout layout,
      Clock clock,
      String workerId) {
    this(
        jobs, objects, envelopes, catalogs, engine, allocator, config, layout, clock, workerId,
        null);
  }

  /**
   * As above; with {@code queue} (where this processor's deliveries come from) a statement that
   * splits fans out into child jobs sent there ({@link FanOut}; {@link WorkerConfig#maxFanOut}).
   */
  public JobProcessor(
      JobStore jobs,
      ObjectStore objects,
      EnvelopeSealer envelopes,
      Catalogs catalogs,
      QueryEngine engine,
      BufferAllocator allocator,
      WorkerConfig config,
      ResultLayout layout,
      Clock clock,
      String workerId,
      JobQueue queue) {
    this.fanOut = queue == null ? null : new FanOut(this, queue);
    this.jobs = requireNonNull(jobs, "jobs is null");
    this.objects = requireNonNull(objects, "objects is null");
    this.envelopes = requireNonNull(envelopes, "envelopes is null");
    this.catalogs = requireNonNull(catalogs, "catalogs is null");
    this.engine = requireNonNull(engine, "engine is null");
    this.allocator = requireNonNull(allocator, "allocator is null");
    this.config = requireNonNull(config, "config is null");
    this.layout = requireNonNull(layout, "layout is null");
    this.clock = requireNonNull(clock, "clock is null");
    this.workerId = requireNonNull(workerId, "workerId is null");
    ScheduledThreadPoolExecutor timers =
        new ScheduledThreadPoolExecutor(
            2,
            r -> {
              Thread t = new Thread(r, "lake-worker-lease");
              t.setDaemon(true);
              return t;
            });
    // an attempt cancels its renewal and deadline when it ends; a long-lived processor (a warm
    // Lambda) must not keep each finished job's deadline queued for hours
    timers.setRemoveOnCancelPolicy(true);
    this.timers = timers;
  }

  /** Processes one delivery of {@code jobId}, finishing the attempt before {@code deadline}. */
  public Outcome process(String jobId, Instant deadline) {
    return process(jobId, deadline, r -> {});
  }

  /**
   * {@link #process(String, Instant)}, handing {@code report} what the attempt did when this
   * delivery ran one (not for deliveries of terminal, held or given-up jobs).
   */
  public Outcome process(String jobId, Instant deadline, Consumer<AttemptReport> report) {
    Optional<Job> found = jobs.find(jobId);
    if (found.isEmpty()) {
      return Outcome.DONE; // expired and reaped, or never created: nothing can run it
    }
    Job job = found.get();
    Instant now = clock.instant();
    // a fanned-out parent is checked, never claimed (also once cancelled: it stops its children)
    if (FanOut.fannedOut(job).isPresent() && fanOut != null && !job.expired(now)) {
      return fanOut.check(job);
    }
    if (job.state().terminal()) {
      return Outcome.DONE;
    }
    if (job.expired(now)) {
      jobs.compareAndSet(job.version(), job.expire(now));
      return Outcome.DONE;
    }
    if (!job.claimable(now)) {
      return Outcome.RETRY; // a live worker holds it; check again after it should be done
    }
    if (job.attempt() >= config.maxAttempts()) {
      // every claim counts, including those whose worker died with the job (lease expired):
      // a job that keeps killing its worker ends here instead of being re-claimed forever
      LOG.warn("job {} gave up after {} attempts whose workers stopped", jobId, job.attempt());
      jobs.compareAndSet(
          job.version(),
          job.fail(
              ErrorCode.RESOURCE_EXHAUSTED,
              "The query stopped its worker "
                  + job.attempt()
                  + " times (a crash or running out of memory) and is not retried; narrow it"
                  + " or ask the operator",
              now));
      return Outcome.DONE;
    }
    Job claimed = job.claim(workerId, now.plus(config.lease()), newQueryId(), now);
    // the shared execution lease: the claim is counted against the running bounds in the same
    // write; a full lease leaves the job PENDING (no attempt used) and its delivery deferred. A
    // RUNNING job whose worker died keeps its place, so taking it over is never refused.
    JobStore.CasResult result = jobs.compareAndSet(job.version(), claimed, config.runningLimits());
    if (result instanceof JobStore.CasResult.Refused refused) {
      LOG.info(
          "job {} deferred: {} of tenant {} at {} of {}",
          jobId,
          refused.reached().limit(),
          refused.reached().tenant(),
          refused.reached().held(),
          refused.reached().max());
      return Outcome.DEFER;
    }
    if (!result.applied()) {
      return result.current().state().terminal() ? Outcome.DONE : Outcome.RETRY;
    }
    LOG.info("claimed job {} attempt {}", jobId, claimed.attempt());
    Outcome outcome = new Attempt(this, result.current(), deadline, report).run();
    if (fanOut != null && outcome == Outcome.DONE && FanOut.isChild(claimed)) {
      fanOut.nudgeParent(claimed); // the parent checks now, not at its next deferred delivery
    }
    return outcome;
  }

  /**
   * After a delivery of {@code message} that did not finish its job: when the queue will not
   * deliver it again ({@link JobQueue#lastDelivery}), {@link #giveUp} the job so that it releases
   * its places now; the message itself still goes where the queue sends it (the dead-letter queue,
   * whose alarm tells the operator). Never throws: a failure leaves the job as it was, to expire.
   */
  public void giveUpIfLast(JobQueue queue, JobQueue.Message message) {
    try {
      if (queue.lastDelivery(message)) {
        giveUp(message.jobId(), message.receiveCount());
      }
    } catch (RuntimeException e) {
      LOG.warn(
          "job {} could not be given up; it keeps its places until it expires", message.jobId(), e);
    }
  }

  /**
   * Ends a job whose queue message reached its last delivery ({@link JobQueue#lastDelivery})
   * without the job finishing: the queue gives the message up (dead-letter queue), so nothing would
   * run the job again and it would keep its places until it expired. Writes FAILED {@code
   * EXTERNAL_UNAVAILABLE}, which releases them at once (exactly once: the write is a
   * compare-and-set, and a terminal job is left alone). A job another worker holds under a live
   * lease is left to that worker, which writes its end itself. Returns whether this call ended the
   * job.
   */
  public boolean giveUp(String jobId, int deliveries) {
    for (int i = 0; i < 3; i++) {
      Optional<Job> found = jobs.find(jobId);
      Instant now = clock.instant();
      if (found.isEmpty()
          || found.get().state().terminal()
          || !(found.get().claimable(now) || found.get().expired(now))) {
        return false;
      }
      Job job = found.get();
      JobStore.CasResult result =
          jobs.compareAndSet(
              job.version(),
              job.fail(
                  ErrorCode.EXTERNAL_UNAVAILABLE,
                  "The query could not be run: its job was delivered to workers "
                      + deliveries
                      + " times without finishing and was given up; submit it again, or ask the"
                      + " operator (dead-letter queue)",
                  now));
      if (result.applied()) {
        LOG.warn("job {} given up after {} deliveries; its places are released", jobId, deliveries);
        return true;
      }
    }
    return false; // it kept changing: whoever changed it owns its end
  }

  private String newQueryId() {
    byte[] bytes = new byte[16];
    random.nextBytes(bytes);
    return "q" + Base64.getUrlEncoder().withoutPadding().encodeToString(bytes);
  }

  /** Only a dependency failure (an EXTERNAL code) is worth another attempt. */
  static boolean transientFailure(RuntimeException e) {
    return e instanceof LakeException le && le.code().kind() == ErrorCode.Kind.EXTERNAL;
  }

  /**
   * The terminal state of a non-transient failure, classified as the front door classifies
   * (FlightErrors): a {@link LakeException} keeps its code and client-safe message; anything else
   * is a bug, INTERNAL, whose details stay in the log under a reference the client is given.
   */
  static Job classify(Job job, RuntimeException e, Instant now) {
    if (e instanceof LakeException le && le.code() != ErrorCode.INTERNAL) {
      return job.fail(le.code(), le.getMessage(), now);
    }
    String ref = java.util.UUID.randomUUID().toString();
    LOG.error("job {} failed with an internal error ref={}", job.id(), ref, e);
    return job.fail(
        ErrorCode.INTERNAL,
        "Internal error in lake (reference " + ref + "); see the worker log",
        now);
  }

  @Override
  public void close() {
    timers.shutdownNow();
  }
}
