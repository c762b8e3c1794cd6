package dev.lake.durable;

import static org.assertj.core.api.Assertions.assertThat;

import dev.lake.core.ErrorCode;
import dev.lake.core.job.Job;
import dev.lake.core.job.JobState;
import dev.lake.core.job.JobStatus;
import dev.lake.core.testing.Poll;
import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.Test;

/**
 * How a run ends when something goes wrong, on both the embedded and the AWS (moto) ports: object
 * store failures, bugs, workers that keep dying, gone snapshots, cancellation and the absolute
 * deadline. Only the engine and the catalog are in-test fakes of our own ports; queue, store,
 * objects and keys are the real implementations under test.
 */
abstract class FaultScenarios extends WorkerFixture {
  @Test
  void objectStoreFailureMidPart_failsWithoutManifest_orLeftovers() {
    // GIVEN uploads that break after 1 KB, and a single allowed attempt
    setUp();
    JobStatus submitted = submit();
    objects.failuresLeft.set(100);
    // WHEN the job runs
    Outcome outcome =
        processor("w1", new FakeEngine(5, 1_000, Duration.ZERO), config(1, Duration.ofSeconds(30)))
            .process(submitted.jobId(), later());
    // THEN it FAILED as a dependency failure, with nothing published or left behind
    assertThat(outcome).isEqualTo(Outcome.DONE);
    Job failed = job(submitted);
    assertThat(failed.state()).isEqualTo(JobState.FAILED);
    assertThat(failed.failure().orElseThrow().code()).isEqualTo(ErrorCode.EXTERNAL_UNAVAILABLE);
    assertThat(ports.objects().list("results/")).isEmpty();
  }

  @Test
  void transientFailure_isHandedBack_andTheNextAttemptSucceeds() {
    // GIVEN one failing upload and three allowed attempts
    setUp();
    JobStatus submitted = submit();
    objects.failuresLeft.set(1);
    JobProcessor p =
        processor("w1", new FakeEngine(3, 1_000, Duration.ZERO), config(3, Duration.ofSeconds(30)));
    // WHEN the first attempt fails and the redelivery runs again
    assertThat(p.process(submitted.jobId(), later())).isEqualTo(Outcome.RETRY);
    assertThat(job(submitted).state()).isEqualTo(JobState.PENDING);
    assertThat(p.process(submitted.jobId(), later())).isEqualTo(Outcome.DONE);
    // THEN attempt 2 succeeded with exactly one manifest and only its parts
    assertThat(job(submitted).state()).isEqualTo(JobState.SUCCEEDED);
    assertThat(job(submitted).attempt()).isEqualTo(2);
    assertThat(manifests()).hasSize(1);
    assertThat(ports.objects().list("results/")).hasSize(4);
  }

  @Test
  void bugInTheWorker_failsInternal_atOnce_notAsADependencyFailure() {
    // GIVEN an engine with a bug (an unexpected exception) and three allowed attempts
    setUp();
    JobStatus submitted = submit();
    JobProcessor p =
        processor(
            "w1",
            FakeEngine.failing(new IllegalStateException("bug at /secret/path")),
            config(3, Duration.ofSeconds(30)));
    // WHEN the job runs
    Outcome outcome = p.process(submitted.jobId(), later());
    // THEN it FAILED at once as INTERNAL, like the front door would classify it, without details
    assertThat(outcome).isEqualTo(Outcome.DONE);
    Job.Failure failure = job(submitted).failure().orElseThrow();
    assertThat(failure.code()).isEqualTo(ErrorCode.INTERNAL);
    assertThat(failure.message())
        .startsWith("Internal error in lake (reference ")
        .doesNotContain("/secret");
    assertThat(job(submitted).attempt()).isEqualTo(1);
  }

  @Test
  void jobWhoseWorkersKeepDying_failsAfterMaxAttempts_insteadOfLoopingForever() {
    // GIVEN a job whose worker died with it twice (claimed, lease expired), two attempts allowed
    setUp();
    JobStatus submitted = submit();
    for (int i = 0; i < 2; i++) {
      Job before = job(submitted);
      Instant past = clock.instant().minusSeconds(10);
      assertThat(
              ports
                  .jobs()
                  .compareAndSet(
                      before.version(), before.claim("dead" + i, past, "qdead" + i, past))
                  .applied())
          .isTrue();
    }
    assertThat(job(submitted).attempt()).isEqualTo(2);
    // WHEN the redelivered message reaches a healthy worker
    Outcome outcome =
        processor("w3", new FakeEngine(1, 10, Duration.ZERO), config(2, Duration.ofSeconds(30)))
            .process(submitted.jobId(), later());
    // THEN the job is not claimed a third time: it FAILED with a clear reason, and polls say so
    assertThat(outcome).isEqualTo(Outcome.DONE);
    JobStatus status = durable.poll(ALICE, submitted.descriptor());
    assertThat(status.state()).isEqualTo(JobState.FAILED);
    assertThat(status.failure().orElseThrow().code()).isEqualTo(ErrorCode.RESOURCE_EXHAUSTED);
    assertThat(status.failure().orElseThrow().message())
        .contains("stopped its worker 2 times")
        .contains("not retried");
    assertThat(job(submitted).attempt()).isEqualTo(2);
  }

  @Test
  void snapshotGoneBeforeTheWorkerRan_failsClosed() {
    // GIVEN a sealed snapshot that retention removed after submission
    setUp();
    JobStatus submitted = submit();
    resolver.gone.add(T);
    // WHEN the worker runs it
    processor("w1", new FakeEngine(1, 10, Duration.ZERO), config(3, Duration.ofSeconds(30)))
        .process(submitted.jobId(), later());
    // THEN FAILED with SNAPSHOT_GONE; the poll reports it; nothing was written
    JobStatus status = durable.poll(ALICE, submitted.descriptor());
    assertThat(status.state()).isEqualTo(JobState.FAILED);
    assertThat(status.failure().orElseThrow().code()).isEqualTo(ErrorCode.SNAPSHOT_GONE);
    assertThat(status.failure().orElseThrow().message())
        .isEqualTo("Table lake.sales.orders at version 3 is no longer available");
    assertThat(ports.objects().list("results/")).isEmpty();
  }

  @Test
  void cancelMidRun_stopsAtTheNextRenewal_withoutManifestOrParts() throws Exception {
    // GIVEN a slow job that is running
    setUp();
    JobStatus submitted = submit();
    JobProcessor p =
        processor(
            "w1",
            new FakeEngine(100, 1_000, Duration.ofMillis(50)),
            config(1, Duration.ofSeconds(30)));
    CompletableFuture<Outcome> run =
        CompletableFuture.supplyAsync(() -> p.process(submitted.jobId(), later()));
    Poll.until(
        Duration.ofSeconds(10),
        () -> job(submitted).rowsWritten() > 0 || run.isDone(),
        "the job started writing rows");
    assertThat(run).as("job state " + job(submitted) + " " + job(submitted).failure()).isNotDone();
    // WHEN the client cancels
    assertThat(durable.cancel(ALICE, submitted.descriptor()))
        .isEqualTo(JobStatus.CancelOutcome.CANCELLING);
    // THEN the worker stops, and nothing of the result remains
    assertThat(run.get(10, java.util.concurrent.TimeUnit.SECONDS)).isEqualTo(Outcome.DONE);
    assertThat(job(submitted).state()).isEqualTo(JobState.CANCELLED);
    assertThat(ports.objects().list("results/")).isEmpty();
  }

  @Test
  void pastTheAbsoluteDeadline_executionStops_andTheJobFails() {
    // GIVEN a 1 s execution deadline and a query that needs 5 s
    setUp();
    JobStatus submitted = submit();
    Outcome outcome =
        processor(
                "w1",
                new FakeEngine(50, 100, Duration.ofMillis(100)),
                config(3, Duration.ofSeconds(1)))
            .process(submitted.jobId(), later());
    // THEN
    assertThat(outcome).isEqualTo(Outcome.DONE);
    assertThat(job(submitted).failure().orElseThrow())
        .isEqualTo(
            new Job.Failure(
                ErrorCode.DEADLINE_EXCEEDED,
                "The query ran past its deadline of 1 s; narrow it or ask for a longer deadline"));
    assertThat(ports.objects().list("results/")).isEmpty();
  }
}
