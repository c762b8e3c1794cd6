package dev.lake.durable;

import static org.assertj.core.api.Assertions.assertThat;

import dev.lake.core.ErrorCode;
import dev.lake.core.Principal;
import dev.lake.core.job.Job;
import dev.lake.core.job.JobQueue;
import dev.lake.core.job.JobState;
import dev.lake.core.job.JobStatus;
import dev.lake.core.job.JobStore;
import dev.lake.core.testing.Poll;
import dev.lake.core.testing.TestArrow;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.Test;

/**
 * How deliveries become runs, on both the embedded and the AWS (moto) ports: parts and manifest,
 * visibility, duplicate and racing deliveries, expired leases, deferral while the tenant's running
 * places are full, and the queue giving a job up. Only the engine and the catalog are in-test fakes
 * of our own ports; queue, store, objects and keys are the real implementations under test.
 */
abstract class DeliveryScenarios extends WorkerFixture {
  @Test
  void run_writesBoundedParts_thenManifest_andPollServesEveryRow() {
    // GIVEN a submitted 3,500-row query and parts capped at 1,000 rows
    setUp();
    JobStatus submitted = submit();
    WorkerConfig config = config(1, Duration.ofSeconds(30));
    JobProcessor processor = processor("w1", new FakeEngine(7, 500, Duration.ZERO), config);
    WorkerRunner runner = new WorkerRunner(ports.queue(), processor, config, clock);
    // WHEN a worker takes it from the queue
    assertThat(runner.pollOnce(Duration.ofSeconds(5))).isTrue();
    // THEN the attempt's renewal and 30 s deadline left the processor's timers with it
    assertThat(((java.util.concurrent.ScheduledThreadPoolExecutor) processor.timers).getQueue())
        .isEmpty();
    // THEN it succeeded with 4 parts, and the tickets download ids 0..3499
    JobStatus done = durable.poll(ALICE, submitted.descriptor());
    assertThat(done.state()).isEqualTo(JobState.SUCCEEDED);
    assertThat(done.parts())
        .extracting(JobStatus.PartTicket::rows)
        .containsExactly(1000L, 1000L, 1000L, 500L);
    List<Long> ids = new ArrayList<>();
    done.parts()
        .forEach(p -> ids.addAll(TestArrow.ids(durable.openPart(ALICE, p.ticket(), allocator))));
    assertThat(ids).isEqualTo(TestArrow.range(3_500));
    assertThat(manifests()).hasSize(1);
    assertThat(ports.queue().receive(1, Duration.ZERO)).isEmpty();
  }

  @Test
  void delivery_isHiddenForTwoLeases_beforeTheJobIsClaimed() {
    // GIVEN a submitted job, a queue that records visibility changes, and renewal slower than the
    // job
    setUp();
    submit();
    List<Duration> hidden = new java.util.concurrent.CopyOnWriteArrayList<>();
    JobQueue queue = ports.queue();
    JobQueue recording =
        new JobQueue() {
          @Override
          public void send(String jobId, String tenant, Duration delay) {
            queue.send(jobId, tenant, delay);
          }

          @Override
          public List<Message> receive(int max, Duration wait) {
            return queue.receive(max, wait);
          }

          @Override
          public void ack(Message message) {
            queue.ack(message);
          }

          @Override
          public void extendVisibility(Message message, Duration timeout) {
            hidden.add(timeout);
            queue.extendVisibility(message, timeout);
          }

          @Override
          public void nack(Message message, Duration delay) {
            queue.nack(message, delay);
          }
        };
    WorkerConfig config = config(1, Duration.ofSeconds(30));
    WorkerRunner runner =
        new WorkerRunner(
            recording,
            processor("w1", new FakeEngine(1, 10, Duration.ZERO), config),
            config,
            clock);
    // WHEN a worker takes it from the queue
    assertThat(runner.pollOnce(Duration.ofSeconds(5))).isTrue();
    // THEN the delivery was hidden for two leases at once (not left at the queue's default, which a
    // worker killed right after its claim would leave the job to), before any renewal period passed
    assertThat(hidden).isNotEmpty();
    assertThat(hidden.get(0)).isEqualTo(config.lease().multipliedBy(2));
  }

  @Test
  void duplicateDelivery_runsOnce_andLeavesExactlyOneManifest() {
    // GIVEN a job delivered twice (the duplicate sent while the first delivery is in flight; the
    // local queue drops a duplicate of a message that is still waiting)
    setUp();
    JobStatus submitted = submit();
    WorkerConfig config = config(1, Duration.ofSeconds(30));
    WorkerRunner runner =
        new WorkerRunner(
            ports.queue(),
            processor("w1", new FakeEngine(2, 100, Duration.ZERO), config),
            config,
            clock);
    List<JobQueue.Message> first = ports.queue().receive(1, Duration.ofSeconds(5));
    assertThat(first).hasSize(1);
    ports.queue().send(submitted.jobId());
    // WHEN both deliveries are processed
    assertThat(runner.pollOnce(Duration.ofSeconds(5))).isTrue();
    assertThat(
            processor("w2", new FakeEngine(2, 100, Duration.ZERO), config)
                .process(first.get(0).jobId(), later()))
        .isEqualTo(Outcome.DONE);
    // THEN one attempt ran and one manifest exists
    assertThat(job(submitted).attempt()).isEqualTo(1);
    assertThat(job(submitted).state()).isEqualTo(JobState.SUCCEEDED);
    assertThat(manifests()).hasSize(1);
  }

  @Test
  void twoWorkersRacing_oneRuns_theOtherRetries_oneManifest() {
    // GIVEN two workers handed the same job at once
    setUp();
    JobStatus submitted = submit();
    WorkerConfig config = config(1, Duration.ofSeconds(30));
    JobProcessor a = processor("wa", new FakeEngine(5, 100, Duration.ofMillis(100)), config);
    JobProcessor b = processor("wb", new FakeEngine(5, 100, Duration.ofMillis(100)), config);
    // WHEN they race
    CompletableFuture<Outcome> fa =
        CompletableFuture.supplyAsync(() -> a.process(submitted.jobId(), later()));
    CompletableFuture<Outcome> fb =
        CompletableFuture.supplyAsync(() -> b.process(submitted.jobId(), later()));
    // THEN exactly one finishes it and the other is told to retry
    assertThat(List.of(fa.join(), fb.join()))
        .containsExactlyInAnyOrder(Outcome.DONE, Outcome.RETRY);
    assertThat(job(submitted).state()).isEqualTo(JobState.SUCCEEDED);
    assertThat(job(submitted).attempt()).isEqualTo(1);
    assertThat(manifests()).hasSize(1);
    // AND the retried delivery later finds it done
    assertThat(b.process(submitted.jobId(), later())).isEqualTo(Outcome.DONE);
  }

  @Test
  void leaseExpired_anotherWorkerTakesOver_andTheZombieIsFenced() {
    // GIVEN a worker that claimed the job, wrote a part, and died (its lease already expired)
    setUp();
    JobStatus submitted = submit();
    Job pending = job(submitted);
    Instant past = clock.instant().minusSeconds(10);
    Job zombie = pending.claim("dead", past, "qzombie", past);
    assertThat(ports.jobs().compareAndSet(pending.version(), zombie).applied()).isTrue();
    ports.objects().put("results/acme/qzombie/part-00000.arrow", new byte[] {1}, true);
    // WHEN another worker gets the redelivered message (a second attempt is allowed)
    WorkerConfig config = config(2, Duration.ofSeconds(30));
    Outcome outcome =
        processor("w2", new FakeEngine(2, 100, Duration.ZERO), config)
            .process(submitted.jobId(), later());
    // THEN it takes over as attempt 2 and publishes the only manifest
    Job done = job(submitted);
    assertThat(outcome).isEqualTo(Outcome.DONE);
    assertThat(done.state()).isEqualTo(JobState.SUCCEEDED);
    assertThat(done.attempt()).isEqualTo(2);
    assertThat(manifests()).hasSize(1).allSatisfy(k -> assertThat(k).doesNotContain("qzombie"));
    // AND the zombie's late success is fenced by the version CAS
    JobStore.CasResult late =
        ports
            .jobs()
            .compareAndSet(
                zombie.version(),
                zombie.succeed("results/acme/qzombie/manifest.json", 1, clock.instant()));
    assertThat(late.applied()).isFalse();
    assertThat(late.current()).isEqualTo(done);
  }

  @Test
  void fullExecutionLease_leavesTheJobPending_andDefersItsDelivery_untilAPlaceFrees() {
    // GIVEN a tenant of its own with one job running elsewhere, one running place per tenant
    setUp();
    Principal tenant =
        Principal.of(
            "t" + UUID.randomUUID().toString().substring(0, 8), "alice", Set.of("lake.sales"));
    WorkerConfig config = config(3, Duration.ofSeconds(30)).withMaxRunningPerTenant(1);
    JobStatus first = submit(tenant);
    JobStatus second = submit(tenant);
    JobProcessor worker = processor("w1", new FakeEngine(1, 10, Duration.ZERO), config);
    Job held = job(first);
    Job running = held.claim("elsewhere", later(), "qheld", clock.instant());
    assertThat(
            ports.jobs().compareAndSet(held.version(), running, config.runningLimits()).applied())
        .isTrue();
    // WHEN a worker receives the second job's delivery
    Poll.until(Duration.ofSeconds(10), () -> receiveJob(second.jobId()).isPresent(), "delivered");
    JobQueue.Message delivery = lastDelivery;
    Outcome outcome = worker.process(second.jobId(), later());
    // THEN it is deferred, not failed: still PENDING, no attempt used
    assertThat(outcome).isEqualTo(Outcome.DEFER);
    assertThat(job(second).state()).isEqualTo(JobState.PENDING);
    assertThat(job(second).attempt()).isZero();
    // AND the deferred delivery comes back as a new message, not one more receive of the old one
    ports.queue().defer(delivery, Duration.ZERO);
    Poll.until(Duration.ofSeconds(10), () -> receiveJob(second.jobId()).isPresent(), "redelivered");
    assertThat(lastDelivery.receiveCount()).isEqualTo(1);
    assertThat(lastDelivery.tenant()).isEqualTo(tenant.tenant());
    // AND once the running job finishes, the next delivery runs it
    ports.jobs().compareAndSet(running.version(), running.cancel(clock.instant()));
    assertThat(worker.process(second.jobId(), later())).isEqualTo(Outcome.DONE);
    assertThat(job(second).state()).isEqualTo(JobState.SUCCEEDED);
  }

  @Test
  void aJobTheQueueGivesUp_endsFailed_andReleasesItsPlacesAtOnce_exactlyOnce() {
    // GIVEN a job whose uploads keep failing, handed back PENDING after its first attempt
    setUp();
    int before = ports.jobs().usage("acme").active();
    JobStatus submitted = submit();
    objects.failuresLeft.set(1_000);
    JobProcessor p =
        processor("w1", new FakeEngine(3, 1_000, Duration.ZERO), config(5, Duration.ofSeconds(30)));
    assertThat(p.process(submitted.jobId(), later())).isEqualTo(Outcome.RETRY);
    assertThat(ports.jobs().usage("acme").active()).isEqualTo(before + 1);
    // WHEN its message's last delivery did not finish it either (the queue dead-letters it next)
    boolean ended = p.giveUp(submitted.jobId(), 5);
    // THEN the job is FAILED with a reason the client can act on, and its place is free now
    assertThat(ended).isTrue();
    Job failed = job(submitted);
    assertThat(failed.state()).isEqualTo(JobState.FAILED);
    assertThat(failed.failure().orElseThrow().code()).isEqualTo(ErrorCode.EXTERNAL_UNAVAILABLE);
    assertThat(failed.failure().orElseThrow().message())
        .contains("delivered to workers 5 times", "submit it again");
    assertThat(ports.jobs().usage("acme").active()).isEqualTo(before);
    assertThat(ports.jobs().usage("acme").runningOfTenant()).isZero();
    // AND giving it up again (a duplicate last delivery) writes nothing and releases nothing more
    assertThat(p.giveUp(submitted.jobId(), 5)).isFalse();
    assertThat(job(submitted)).isEqualTo(failed);
    assertThat(ports.jobs().usage("acme").active()).isEqualTo(before);
  }

  @Test
  void aJobHeldUnderALiveLease_isLeftToItsHolder_whenADuplicateMessageIsGivenUp() {
    // GIVEN a job another worker holds under a live lease
    setUp();
    JobStatus submitted = submit();
    Job pending = job(submitted);
    Job held = pending.claim("w-live", clock.instant().plusSeconds(60), "qlive", clock.instant());
    assertThat(ports.jobs().compareAndSet(pending.version(), held).applied()).isTrue();
    // WHEN the last delivery of a duplicate message of it gives up
    JobProcessor p =
        processor("w1", new FakeEngine(3, 1_000, Duration.ZERO), config(5, Duration.ofSeconds(30)));
    boolean ended = p.giveUp(submitted.jobId(), 5);
    // THEN the holder keeps it (it writes the job's end itself) and it keeps its running place
    assertThat(ended).isFalse();
    assertThat(job(submitted)).isEqualTo(held);
    assertThat(ports.jobs().usage("acme").runningOfTenant()).isPositive();
    ports.jobs().compareAndSet(held.version(), held.cancel(clock.instant())); // leave no holder
  }
}
