package dev.lake.durable;

import static org.assertj.core.api.Assertions.assertThat;

import dev.lake.core.ErrorCode;
import dev.lake.core.job.Job;
import dev.lake.core.job.JobQueue;
import dev.lake.core.job.JobState;
import dev.lake.core.job.JobStatus;
import dev.lake.core.job.ResultManifest;
import java.io.InputStream;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Durable fan-out on the embedded ports, driven delivery by delivery: the fake engine cuts the
 * statement into 8 splits, each an eighth of the work (sleeps, so the timing holds on a busy
 * machine). A statement whose work exceeds one worker's deadline completes as splits and fails
 * clearly without them; a child whose worker dies mid-split is taken over and the parent still
 * publishes exactly the rows one worker would.
 */
class LocalFanOutTest extends WorkerFixture {
  @TempDir Path dir;

  @Override
  protected Ports ports() {
    return LocalPorts.create(dir);
  }

  /** 16 batches of 100 rows, 250 ms each: 4 s of work for one worker, 0.5 s per split of 8. */
  static FakeEngine engine() {
    return FakeEngine.splitting(16, 100, Duration.ofMillis(250), 8);
  }

  static WorkerConfig config(int maxFanOut) {
    return WorkerFixture.config(3, Duration.ofSeconds(2)).withMaxFanOut(maxFanOut);
  }

  JobProcessor fanOutProcessor(String id, WorkerConfig config) {
    JobProcessor p =
        new JobProcessor(
            ports.jobs(),
            objects,
            new dev.lake.durable.EnvelopeSealer(ports.keys()),
            new dev.lake.core.Catalogs(List.of(resolver)),
            engine(),
            allocator,
            config,
            LAYOUT,
            clock,
            id,
            ports.queue());
    processors.add(p);
    return p;
  }

  /** Delivers every queued message to {@code p} until {@code parent} is terminal. */
  void drive(JobProcessor p, String parent) {
    Instant until = clock.instant().plusSeconds(60);
    while (!ports.jobs().find(parent).orElseThrow().state().terminal()) {
      assertThat(clock.instant()).as("the fan-out ended in time").isBefore(until);
      for (JobQueue.Message m : ports.queue().receive(10, Duration.ofMillis(100))) {
        switch (p.process(m.jobId(), later())) {
          case DONE -> ports.queue().ack(m);
          case DEFER -> ports.queue().defer(m, Duration.ZERO);
          case RETRY -> ports.queue().nack(m, Duration.ZERO);
        }
      }
    }
  }

  List<Job> children(String parent) {
    List<Job> out = new ArrayList<>();
    for (int i = 0; ; i++) {
      var child = ports.jobs().find(FanOut.childId(parent, 1, i));
      if (child.isEmpty()) {
        return out;
      }
      out.add(child.get());
    }
  }

  ResultManifest manifest(Job job) throws Exception {
    try (InputStream in = ports.objects().find(job.manifestKey().orElseThrow()).orElseThrow()) {
      return ResultManifest.fromJson(in.readAllBytes());
    }
  }

  @Test
  void workBeyondOneWorkersDeadline_completesAsSplits_andFailsClearlyWithoutThem()
      throws Exception {
    // GIVEN 4 s of work and a 2 s deadline per attempt
    setUp();
    JobStatus alone = submit();
    // WHEN one worker runs it (fan-out off)
    JobProcessor single = fanOutProcessor("w1", config(1));
    drive(single, alone.jobId());
    // THEN it fails with the deadline, naming it and what to do, and publishes nothing
    assertThat(job(alone).failure().orElseThrow())
        .isEqualTo(
            new Job.Failure(
                ErrorCode.DEADLINE_EXCEEDED,
                "The query ran past its deadline of 2 s; narrow it or ask for a longer deadline"));
    assertThat(manifests()).isEmpty();
    // WHEN the same work fans out into 8 splits
    JobStatus split = submit();
    drive(fanOutProcessor("w2", config(8)), split.jobId());
    // THEN every split finished within its deadline and the parent published all 1,600 rows as
    // one manifest listing each child's parts
    Job parent = job(split);
    assertThat(parent.state()).isEqualTo(JobState.SUCCEEDED);
    List<Job> children = children(split.jobId());
    assertThat(children).hasSize(8).allMatch(c -> c.state() == JobState.SUCCEEDED);
    ResultManifest m = manifest(parent);
    assertThat(m.rows()).isEqualTo(1_600);
    assertThat(m.parts()).hasSize(8);
    for (int i = 0; i < 8; i++) {
      assertThat(m.parts().get(i).key())
          .startsWith(LAYOUT.directory("acme", children.get(i).queryId().orElseThrow()));
    }
    // AND the poll answers with it, and the tenant holds no place
    assertThat(durable.poll(ALICE, split.descriptor()).state()).isEqualTo(JobState.SUCCEEDED);
    assertThat(ports.jobs().usage("acme").active()).isZero();
  }

  @Test
  void childWhoseWorkerDiedMidSplit_isTakenOver_andTheParentPublishesEveryRow() throws Exception {
    // GIVEN a statement fanned out into 8 children
    setUp();
    JobStatus submitted = submit();
    JobProcessor p = fanOutProcessor("w1", config(8));
    List<JobQueue.Message> first = ports.queue().receive(1, Duration.ofSeconds(1));
    assertThat(p.process(first.get(0).jobId(), later())).isEqualTo(Outcome.DEFER);
    ports.queue().defer(first.get(0), Duration.ZERO);
    assertThat(job(submitted).state()).isEqualTo(JobState.PENDING);
    // AND child 3's worker claimed it and died (its lease ran out, nothing was published)
    Job child = ports.jobs().find(FanOut.childId(submitted.jobId(), 1, 3)).orElseThrow();
    Instant past = clock.instant().minusSeconds(10);
    assertThat(
            ports
                .jobs()
                .compareAndSet(child.version(), child.claim("dead", past, "qdead", past))
                .applied())
        .isTrue();
    // WHEN the deliveries go on
    drive(p, submitted.jobId());
    // THEN the child was taken over (second attempt), and the parent published every row once
    assertThat(ports.jobs().find(child.id()).orElseThrow().attempt()).isEqualTo(2);
    Job parent = job(submitted);
    assertThat(parent.state()).isEqualTo(JobState.SUCCEEDED);
    assertThat(manifest(parent).rows()).isEqualTo(1_600);
    assertThat(ports.jobs().usage("acme").running()).isZero();
  }
}
