package dev.lake.durable;

import static java.util.Objects.requireNonNull;

import dev.lake.core.ErrorCode;
import dev.lake.core.SnapshotSet;
import dev.lake.core.SplitPlan;
import dev.lake.core.job.Job;
import dev.lake.core.job.JobQueue;
import dev.lake.core.job.JobState;
import dev.lake.core.job.JobStore;
import dev.lake.core.job.PartRef;
import dev.lake.core.job.ResultFormat;
import dev.lake.core.job.ResultManifest;
import java.io.IOException;
import java.io.InputStream;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Durable fan-out: a job whose statement splits ({@code QueryEngine.splits}) runs as one child job
 * per split, each an ordinary job (same CAS, lease, attempt, fencing, per-tenant bounds) whose
 * envelope pins the split's restricted snapshot. The parent holds no worker and no running place
 * while its children run: its record goes back to PENDING, keeping its query id, with the lease
 * owner {@code fan-out:<attempt>:<n>} as the mark, and each delivery of its message checks the
 * children and is deferred again ({@code retryDelay}) until they are done. (Were it to stay
 * RUNNING, a tenant's fanned-out parents could hold every running place its children need.) Then,
 * in one delivery: every child SUCCEEDED → the parent publishes one manifest (in its own result
 * directory) listing every child's parts in split order, and CASes to SUCCEEDED; a child FAILED or
 * CANCELLED (or gone) → the others are cancelled, every child's result is deleted, and the parent
 * FAILS with the child's error, publishing nothing. A cancelled parent cancels its children at its
 * next delivery.
 *
 * <p>Children are {@code <parent id>-f<attempt>-<i>} with fingerprint {@code fan-out:<parent id>}
 * (they never fan out again), expire with the parent, are never handed to clients, and count
 * against the tenant's active jobs like any job (so while they run, the tenant has fewer places for
 * new submissions); how many there are is bounded by the worker's {@code maxFanOut}.
 */
final class FanOut {
  private static final Logger LOG = LoggerFactory.getLogger(FanOut.class);
  private static final Pattern OWNER = Pattern.compile("fan-out:(\\d+):(\\d+)");
  private static final String CHILD_FINGERPRINT = "fan-out:";

  private final JobProcessor p;
  private final JobQueue queue;

  FanOut(JobProcessor p, JobQueue queue) {
    this.p = requireNonNull(p, "p is null");
    this.queue = requireNonNull(queue, "queue is null");
  }

  /** Whether {@code job} is a child of a fan-out (it never fans out again). */
  static boolean isChild(Job job) {
    return job.fingerprint().startsWith(CHILD_FINGERPRINT);
  }

  /** The number of children of a fanned-out parent (also once terminal); empty for other jobs. */
  static Optional<int[]> fannedOut(Job job) {
    if (job.lease().isEmpty()) {
      return Optional.empty();
    }
    Matcher m = OWNER.matcher(job.lease().get().owner());
    return m.matches()
        ? Optional.of(new int[] {Integer.parseInt(m.group(1)), Integer.parseInt(m.group(2))})
        : Optional.empty();
  }

  /**
   * Sends the parent of {@code child} a delivery now, after one of the child's attempts ended, so
   * that the parent publishes (or fails) without waiting for its next deferred delivery; a failure
   * only costs that wait.
   */
  void nudgeParent(Job child) {
    try {
      queue.send(
          child.fingerprint().substring(CHILD_FINGERPRINT.length()), child.tenant(), Duration.ZERO);
    } catch (RuntimeException e) {
      LOG.debug("could not nudge the parent of {}; its deferred delivery checks", child.id(), e);
    }
  }

  static String childId(String parentId, int attempt, int index) {
    return parentId + "-f" + attempt + "-" + index;
  }

  /**
   * Creates one child per split of {@code envelope}'s statement (at least two) and hands the
   * claimed parent over to its children.
   */
  Outcome start(Job parent, JobEnvelope envelope, SplitPlan plan) {
    Instant now = p.clock.instant();
    List<Job> children = new ArrayList<>();
    List<SnapshotSet> splits = plan.splits();
    for (int i = 0; i < splits.size(); i++) {
      String id = childId(parent.id(), parent.attempt(), i);
      // partial results (to be combined) are intermediate: Arrow, whatever the client asked for
      JobEnvelope split =
          new JobEnvelope(
              plan.childSql(),
              envelope.kind(),
              envelope.parameters(),
              splits.get(i),
              envelope.principal(),
              envelope.schemaJson(),
              plan.combineSql().isPresent() ? ResultFormat.ARROW : envelope.resultFormat(),
              plan.combineSql());
      Job child =
          Job.pending(
              id,
              parent.tenant(),
              parent.principal(),
              CHILD_FINGERPRINT + parent.id(),
              p.envelopes.seal(id, split),
              now,
              parent.expiresAt());
      // no bound is asked (JobLimits.NONE): an existing child (a retried start of this attempt)
      // is taken as it is
      JobStore.CreateResult created = p.jobs.createIfAbsent(child);
      children.add(created instanceof JobStore.CreateResult.Existing e ? e.job() : child);
    }
    String owner = "fan-out:" + parent.attempt() + ":" + splits.size();
    JobStore.CasResult result =
        p.jobs.compareAndSet(parent.version(), parent.awaitSplits(owner, 0, 0, now));
    if (!result.applied()) {
      cancelAll(children); // cancelled (or taken over) while the children were made
      return result.current().state().terminal() ? Outcome.DONE : Outcome.RETRY;
    }
    for (Job child : children) {
      queue.send(child.id(), child.tenant(), Duration.ZERO);
    }
    LOG.info("job {} fanned out into {} splits", parent.id(), splits.size());
    return Outcome.DEFER;
  }

  /** One delivery of a fanned-out parent (RUNNING or terminal). */
  Outcome check(Job parent) {
    int[] shape = fannedOut(parent).orElseThrow();
    List<Optional<Job>> children = new ArrayList<>();
    for (int i = 0; i < shape[1]; i++) {
      children.add(p.jobs.find(childId(parent.id(), shape[0], i)));
    }
    if (parent.state().terminal()) {
      // cancelled by its client (or failed by a give-up): stop and delete every child; a
      // succeeded parent's listing points at its children's parts, which stay
      if (parent.state() != JobState.SUCCEEDED) {
        abandon(children);
      }
      return Outcome.DONE;
    }
    Instant now = p.clock.instant();
    // the root cause names the outcome: a failed child's error wins over a sibling that an
    // earlier check (whose parent update lost a race) already cancelled
    Optional<Job> broken =
        children.stream()
            .flatMap(Optional::stream)
            .filter(c -> c.state() == JobState.FAILED && c.failure().isPresent())
            .findFirst()
            .or(
                () ->
                    children.stream()
                        .flatMap(Optional::stream)
                        .filter(c -> c.state() == JobState.CANCELLED)
                        .findFirst());
    if (broken.isPresent() || children.stream().anyMatch(Optional::isEmpty)) {
      abandon(children);
      Job failed = failureOf(parent, broken.orElse(null), now);
      p.jobs.compareAndSet(parent.version(), failed);
      return Outcome.DONE;
    }
    if (children.stream().allMatch(c -> c.get().state() == JobState.SUCCEEDED)) {
      return publish(parent, children.stream().map(Optional::get).toList(), now);
    }
    long done = children.stream().filter(c -> c.get().state() == JobState.SUCCEEDED).count();
    long rows = children.stream().mapToLong(c -> c.get().rowsWritten()).sum();
    double progress = (double) done / shape[1];
    if (progress != parent.progress() || rows != parent.rowsWritten()) {
      JobStore.CasResult updated =
          p.jobs.compareAndSet(
              parent.version(),
              parent.awaitSplits(parent.lease().orElseThrow().owner(), progress, rows, now));
      if (!updated.applied() && updated.current().state().terminal()) {
        return check(updated.current());
      }
    }
    return Outcome.DEFER;
  }

  private Outcome publish(Job parent, List<Job> children, Instant now) {
    List<ResultManifest> manifests = new ArrayList<>();
    for (Job child : children) {
      manifests.add(manifest(child.manifestKey().orElseThrow()));
    }
    String directory = p.layout.directory(parent.tenant(), parent.queryId().orElseThrow());
    Optional<String> combine = p.envelopes.open(children.get(0)).combineSql();
    List<PartRef> parts = new ArrayList<>();
    String schema;
    String format;
    if (combine.isPresent()) {
      JobEnvelope envelope = p.envelopes.open(parent);
      CombineStep.Combined combined;
      try {
        combined =
            new CombineStep(p)
                .run(
                    combine.get(),
                    manifests,
                    envelope.schema(),
                    envelope.resultFormat(),
                    directory);
      } catch (RuntimeException e) {
        return combineFailed(parent, children, directory, e);
      }
      parts.addAll(combined.parts());
      schema = combined.schemaJson();
      format = envelope.resultFormat().manifestName();
    } else {
      schema = manifests.get(0).schemaJson();
      format = manifests.get(0).format();
      for (ResultManifest m : manifests) {
        for (PartRef part : m.parts()) {
          parts.add(new PartRef(parts.size(), part.key(), part.rows(), part.bytes()));
        }
      }
    }
    ResultManifest manifest =
        new ResultManifest(
            parent.id(),
            parent.tenant(),
            parent.queryId().orElseThrow(),
            format,
            schema,
            parts,
            ResultManifest.STATE_COMPLETE,
            now,
            min(now.plus(p.layout.bounds().resultTtl()), parent.expiresAt()));
    // a duplicate delivery may have published the same listing already: it is the same result
    new ResultWriter(p.objects, p.layout.bounds()).publish(directory, manifest);
    Job done = parent.succeed(ResultWriter.manifestKey(directory), manifest.rows(), now);
    JobStore.CasResult result = p.jobs.compareAndSet(parent.version(), done);
    if (result.applied()) {
      LOG.info(
          "job {} succeeded from {} splits: {} parts, {} rows",
          parent.id(),
          children.size(),
          parts.size(),
          manifest.rows());
      if (combine.isPresent()) {
        // the partial results are no one's result: the parent's listing holds its own parts
        cancelAll(children);
      }
      return Outcome.DONE;
    }
    if (result.current().state() == JobState.SUCCEEDED) {
      return Outcome.DONE; // a duplicate delivery won with the same listing
    }
    if (!result.current().state().terminal()) {
      // another delivery moved the record (its progress update): the listing stays, since a
      // concurrent delivery may be publishing the same one; check again, which republishes
      return check(result.current());
    }
    // cancelled or failed meanwhile: the listing is not referenced; nothing may stay published
    new ResultWriter(p.objects, p.layout.bounds()).discardAll(directory);
    return check(result.current());
  }

  /**
   * The combine step failed: a dependency (an EXTERNAL code) is retried with the next delivery; a
   * duplicate delivery that already succeeded wins; anything else fails the parent with its error
   * and then — only once that write applied, so a concurrent delivery's published result is never
   * touched — deletes every child's result and the parent's parts (nothing published).
   */
  private Outcome combineFailed(
      Job parent, List<Job> children, String directory, RuntimeException e) {
    for (int i = 0; i < 3; i++) {
      Job current = p.jobs.find(parent.id()).orElse(parent);
      if (current.state().terminal()) {
        return current.state() == JobState.SUCCEEDED ? Outcome.DONE : check(current);
      }
      if (JobProcessor.transientFailure(e)) {
        LOG.warn("job {}: combining its splits failed transiently; retried", parent.id(), e);
        return Outcome.RETRY;
      }
      JobStore.CasResult failed =
          p.jobs.compareAndSet(
              current.version(), JobProcessor.classify(current, e, p.clock.instant()));
      if (failed.applied()) {
        cancelAll(children);
        new ResultWriter(p.objects, p.layout.bounds()).discardAll(directory);
        return Outcome.DONE;
      }
    }
    return Outcome.RETRY;
  }

  private ResultManifest manifest(String key) {
    Optional<InputStream> in = p.objects.find(key);
    if (in.isEmpty()) {
      throw new dev.lake.core.LakeException(
          ErrorCode.EXTERNAL_UNAVAILABLE, "A split's result manifest is missing; retry later");
    }
    try (InputStream stream = in.get()) {
      return ResultManifest.fromJson(stream.readAllBytes());
    } catch (IOException e) {
      throw new dev.lake.core.LakeException(
          ErrorCode.EXTERNAL_UNAVAILABLE, "A split's result manifest is unreadable", e);
    }
  }

  private Job failureOf(Job parent, Job child, Instant now) {
    if (child != null && child.failure().isPresent()) {
      return parent.fail(child.failure().get().code(), child.failure().get().message(), now);
    }
    return parent.fail(
        ErrorCode.EXTERNAL_UNAVAILABLE,
        "A split of the query was stopped before it finished; submit the query again",
        now);
  }

  /** Cancels every unfinished child and deletes every child's result. */
  private void abandon(List<Optional<Job>> children) {
    cancelAll(children.stream().flatMap(Optional::stream).toList());
  }

  private void cancelAll(List<Job> children) {
    for (Job child : children) {
      Job current = child;
      for (int i = 0; i < 3 && !current.state().terminal(); i++) {
        JobStore.CasResult r =
            p.jobs.compareAndSet(current.version(), current.cancel(p.clock.instant()));
        current = r.current();
      }
      if (current.queryId().isPresent()) {
        // a finished child's parts, or a cancelled one's leftovers (its attempt also discards)
        new ResultWriter(p.objects, p.layout.bounds())
            .discardAll(p.layout.directory(current.tenant(), current.queryId().get()));
      }
    }
  }

  private static Instant min(Instant a, Instant b) {
    return a.isBefore(b) ? a : b;
  }
}
