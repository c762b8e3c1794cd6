package dev.lake.durable;

import dev.lake.core.ErrorCode;
import dev.lake.core.LakeException;
import dev.lake.core.QueryExecution;
import dev.lake.core.QueryStats;
import dev.lake.core.SplitPlan;
import dev.lake.core.job.Job;
import dev.lake.core.job.JobState;
import dev.lake.core.job.JobStore;
import dev.lake.core.job.PartRef;
import dev.lake.core.job.ResultFormat;
import dev.lake.core.job.ResultManifest;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One claimed attempt of a job: verify the sealed snapshots, execute, write parts, publish the
 * manifest, CAS to SUCCEEDED. A timer renews the lease {@code renewEvery} after the previous
 * renewal ended; a renewal that finds the job CANCELLED, or loses the lease, stops execution, as
 * does the absolute deadline. Every exit other than success removes what this attempt wrote.
 * Because each attempt writes under its own random query id and success is a CAS on the version it
 * last held, a fenced-off attempt can never publish a result the job points to; it deletes its own
 * manifest when the CAS fails.
 */
final class Attempt {
  private static final Logger LOG = LoggerFactory.getLogger(Attempt.class);

  /** Why execution was stopped from outside the writing thread. */
  private enum Stop {
    CANCELLED,
    DEADLINE,
    LOST_LEASE
  }

  private final JobProcessor p;
  private final Instant deadline;
  private final AtomicReference<Job> current;
  private final AtomicReference<Stop> stop = new AtomicReference<>();
  private final AtomicLong rows = new AtomicLong();
  private final Object lock = new Object();
  private final String directory;
  private volatile QueryExecution execution;
  private final Consumer<AttemptReport> report;
  private final TimedObjectStore timedObjects;
  private final long startNanos = System.nanoTime();
  private Map<String, String> pins = Map.of();
  private long executingNanos = -1;
  private long writtenNanos = -1;
  private QueryStats stats = QueryStats.NONE;
  private ResultFormat format = ResultFormat.ARROW;

  Attempt(JobProcessor p, Job claimed, Instant deadline, Consumer<AttemptReport> report) {
    this.p = p;
    this.report = report;
    this.timedObjects = new TimedObjectStore(p.objects);
    this.current = new AtomicReference<>(claimed);
    Instant own = p.clock.instant().plus(p.config.maxExecution());
    this.deadline = own.isBefore(deadline) ? own : deadline;
    this.directory = p.layout.directory(claimed.tenant(), claimed.queryId().orElseThrow());
  }

  Outcome run() {
    long delay = Math.max(0, Duration.between(p.clock.instant(), deadline).toMillis());
    long period = p.config.renewEvery().toMillis();
    // fixed delay, not fixed rate: when the store is slow, back-to-back renewals would hold the
    // record's version moving continuously and a client's cancel (a CAS on the version it read)
    // could lose every attempt; a gap of renewEvery after each renewal leaves it a window
    ScheduledFuture<?> renewal =
        p.timers.scheduleWithFixedDelay(this::renew, period, period, TimeUnit.MILLISECONDS);
    ScheduledFuture<?> timeout =
        p.timers.schedule(() -> stop(Stop.DEADLINE), delay, TimeUnit.MILLISECONDS);
    try {
      JobEnvelope envelope = p.envelopes.open(current.get());
      pins = envelope.snapshots().pins();
      p.catalogs.verifyAll(envelope.principal(), envelope.snapshots());
      if (p.fanOut != null && p.config.maxFanOut() > 1 && !FanOut.isChild(current.get())) {
        SplitPlan plan =
            p.engine
                .forTenant(envelope.principal().tenant())
                .splits(
                    envelope.query(),
                    envelope.snapshots(),
                    p.config.splitRows(),
                    p.config.maxFanOut());
        if (plan.fansOut()) {
          renewal.cancel(false);
          synchronized (lock) {
            // a renewal that found the job cancelled (or lost) stops here, as before execution
            return stop.get() != null ? stopped() : p.fanOut.start(current.get(), envelope, plan);
          }
        }
      }
      List<PartRef> parts;
      try (QueryExecution exec =
          p.engine
              .forTenant(envelope.principal().tenant())
              .execute(
                  envelope.query(),
                  envelope.parameters(),
                  envelope.snapshots(),
                  p.allocator,
                  // the engine's own deadline backs this attempt's (which fires first and names
                  // itself); without it the engine would apply its short interactive deadline
                  Duration.ofMillis(delay).plusSeconds(5))) {
        execution = exec;
        executingNanos = System.nanoTime();
        if (stop.get() != null) {
          exec.cancel();
        }
        format = envelope.resultFormat();
        try {
          parts =
              new ResultWriter(timedObjects, p.layout.bounds(), p.engine.parquet())
                  .writeParts(directory, exec.reader(), format, p.allocator, this::afterBatch);
        } finally {
          writtenNanos = System.nanoTime();
          stats = exec.stats();
        }
        checkStopped();
        return publish(exec, parts, renewal);
      }
    } catch (RuntimeException e) {
      renewal.cancel(false);
      return failed(e);
    } finally {
      renewal.cancel(false);
      timeout.cancel(false);
      report.accept(report());
    }
  }

  /** Where this attempt's time went (phases it never reached count zero). */
  private AttemptReport report() {
    Job job = current.get();
    long planned = executingNanos < 0 ? 0 : executingNanos - startNanos;
    long pulled = executingNanos < 0 || writtenNanos < 0 ? 0 : writtenNanos - executingNanos;
    long upload = timedObjects.writeNanos();
    return new AttemptReport(
        job.id(),
        job.tenant(),
        pins,
        Duration.ofNanos(planned),
        Duration.ofNanos(Math.max(0, pulled - upload)),
        Duration.ofNanos(upload),
        rows.get(),
        stats);
  }

  private void afterBatch(long rowsSoFar, int partsSoFar) {
    rows.set(rowsSoFar);
    checkStopped();
  }

  private void checkStopped() {
    if (stop.get() != null) {
      throw new LakeException(ErrorCode.CANCELLED, "stopped: " + stop.get());
    }
  }

  private Outcome publish(QueryExecution exec, List<PartRef> parts, ScheduledFuture<?> renewal) {
    renewal.cancel(false);
    ResultWriter writer = new ResultWriter(p.objects, p.layout.bounds());
    synchronized (lock) {
      // fence: prove we still hold the lease right before publishing
      if (!renewOnce() || stop.get() != null) {
        writer.discardAll(directory);
        return stopped();
      }
      Job job = current.get();
      Instant now = p.clock.instant();
      ResultManifest manifest =
          new ResultManifest(
              job.id(),
              job.tenant(),
              job.queryId().orElseThrow(),
              format.manifestName(),
              schemaJson(exec),
              parts,
              ResultManifest.STATE_COMPLETE,
              now,
              min(now.plus(p.layout.bounds().resultTtl()), job.expiresAt()));
      if (!writer.publish(directory, manifest)) {
        writer.discardAll(directory);
        throw new LakeException(ErrorCode.INTERNAL, "A manifest already exists for this attempt");
      }
      Job done = job.succeed(ResultWriter.manifestKey(directory), manifest.rows(), now);
      JobStore.CasResult result = p.jobs.compareAndSet(job.version(), done);
      if (result.applied()) {
        LOG.info("job {} succeeded: {} parts, {} rows", job.id(), parts.size(), manifest.rows());
        return Outcome.DONE;
      }
      writer.discardAll(directory);
      current.set(result.current());
      return result.current().state().terminal() ? Outcome.DONE : Outcome.RETRY;
    }
  }

  private Outcome failed(RuntimeException e) {
    ResultWriter writer = new ResultWriter(p.objects, p.layout.bounds());
    try {
      writer.discardAll(directory);
    } catch (RuntimeException cleanup) {
      e.addSuppressed(cleanup);
    }
    synchronized (lock) {
      if (stop.get() != null) {
        return stopped();
      }
      Job job = current.get();
      Instant now = p.clock.instant();
      Job next;
      if (JobProcessor.transientFailure(e) && job.attempt() < p.config.maxAttempts()) {
        LOG.warn(
            "job {} attempt {} failed transiently; handing it back", job.id(), job.attempt(), e);
        next = job.release(now);
      } else if (JobProcessor.transientFailure(e)) {
        LOG.warn("job {} failed after {} attempts", job.id(), job.attempt(), e);
        next =
            job.fail(
                ErrorCode.EXTERNAL_UNAVAILABLE,
                "A dependency failed " + job.attempt() + " times; submit the query again",
                now);
      } else {
        next = JobProcessor.classify(job, e, now);
      }
      JobStore.CasResult result = p.jobs.compareAndSet(job.version(), next);
      Job after = result.current();
      return after.state().terminal() ? Outcome.DONE : Outcome.RETRY;
    }
  }

  /** After an external stop: the job is CANCELLED, past its deadline, or owned by another. */
  private Outcome stopped() {
    Stop why = stop.get();
    Job job = current.get();
    if (why == Stop.DEADLINE) {
      String message =
          "The query ran past its deadline of "
              + p.config.maxExecution().toSeconds()
              + " s; narrow it or ask for a longer deadline";
      p.jobs.compareAndSet(
          job.version(), job.fail(ErrorCode.DEADLINE_EXCEEDED, message, p.clock.instant()));
      return Outcome.DONE;
    }
    if (why == Stop.CANCELLED || job.state().terminal()) {
      return Outcome.DONE;
    }
    return Outcome.RETRY; // lost the lease: whoever holds it now finishes
  }

  private void renew() {
    synchronized (lock) {
      if (stop.get() == null) {
        renewOnce();
      }
    }
  }

  /** One lease renewal by CAS; false (and a stop) if the job is no longer ours. */
  private boolean renewOnce() {
    Job job = current.get();
    Instant now = p.clock.instant();
    try {
      JobStore.CasResult result =
          p.jobs.compareAndSet(
              job.version(), job.renew(now.plus(p.config.lease()), rows.get(), now));
      current.set(result.current());
      if (result.applied()) {
        return true;
      }
      stop(result.current().state() == JobState.CANCELLED ? Stop.CANCELLED : Stop.LOST_LEASE);
      return false;
    } catch (RuntimeException e) {
      // store unreachable: keep going while the lease we hold is still valid
      if (!job.lease().orElseThrow().expiresAt().isAfter(now.plus(p.config.renewEvery()))) {
        stop(Stop.LOST_LEASE);
        return false;
      }
      return true;
    }
  }

  private void stop(Stop why) {
    if (stop.compareAndSet(null, why)) {
      LOG.info("stopping job {}: {}", current.get().id(), why);
      QueryExecution exec = execution;
      if (exec != null) {
        exec.cancel();
      }
    }
  }

  private static String schemaJson(QueryExecution exec) {
    try {
      return exec.reader().getVectorSchemaRoot().getSchema().toJson();
    } catch (java.io.IOException e) {
      throw new LakeException(ErrorCode.QUERY_FAILED, "The result schema is unreadable", e);
    }
  }

  private static Instant min(Instant a, Instant b) {
    return a.isBefore(b) ? a : b;
  }
}
