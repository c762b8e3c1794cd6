package dev.lake.core.contract;

import static org.assertj.core.api.Assertions.assertThat;

import dev.lake.core.ErrorCode;
import dev.lake.core.job.Job;
import dev.lake.core.job.JobLimits;
import dev.lake.core.job.JobState;
import dev.lake.core.job.JobStore;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.Test;

/** The behaviour every {@link JobStore} implementation must show; subclass per adapter. */
public abstract class JobStoreContract {
  protected static final Instant T0 = Instant.parse("2030-01-01T00:00:00Z");

  protected abstract JobStore store();

  protected static Job newJob() {
    return Job.pending(
        "j-" + UUID.randomUUID().toString().replace("-", ""),
        "acme",
        "alice",
        "fp",
        new byte[] {1, 2, 3},
        T0,
        T0.plusSeconds(3600));
  }

  @Test
  void createIfAbsent_createsOnce_thenReturnsExisting() {
    // GIVEN a created job
    JobStore store = store();
    Job job = newJob();
    assertThat(store.createIfAbsent(job)).isInstanceOf(JobStore.CreateResult.Created.class);
    // WHEN a different record with the same id is created
    Job other = newJobWithId(job.id(), "fp2");
    JobStore.CreateResult again = store.createIfAbsent(other);
    // THEN the stored one is returned unchanged
    assertThat(again).isEqualTo(new JobStore.CreateResult.Existing(job));
  }

  @Test
  void find_unknownId_isEmpty() {
    assertThat(store().find("j-unknown")).isEmpty();
  }

  @Test
  void roundTrip_preservesEveryField() {
    // GIVEN a job that went through claim and failure
    JobStore store = store();
    Job job = newJob();
    store.createIfAbsent(job);
    Job running = job.claim("worker-1", T0.plusSeconds(60), "q123", T0.plusSeconds(1));
    Job failed = running.fail(ErrorCode.SNAPSHOT_GONE, "gone", T0.plusSeconds(2));
    assertThat(store.compareAndSet(1, running).applied()).isTrue();
    assertThat(store.compareAndSet(2, failed).applied()).isTrue();
    // THEN it reads back equal, field for field
    assertThat(store.find(job.id())).contains(failed);
  }

  @Test
  void compareAndSet_conflicts_withCurrent_whenVersionMoved() {
    // GIVEN a job claimed by worker-1
    JobStore store = store();
    Job job = newJob();
    store.createIfAbsent(job);
    Job first = job.claim("worker-1", T0.plusSeconds(60), "q1", T0);
    assertThat(store.compareAndSet(1, first)).isInstanceOf(JobStore.CasResult.Applied.class);
    // WHEN worker-2 tries the same transition from the stale version
    JobStore.CasResult second =
        store.compareAndSet(1, job.claim("worker-2", T0.plusSeconds(60), "q2", T0));
    // THEN it is a clean conflict carrying worker-1's record
    assertThat(second).isInstanceOf(JobStore.CasResult.Conflict.class);
    assertThat(second.current()).isEqualTo(first);
  }

  @Test
  void compareAndSet_racingWriters_exactlyOneApplies() throws Exception {
    // GIVEN a pending job and 6 workers claiming it at once
    JobStore store = store();
    Job job = newJob();
    store.createIfAbsent(job);
    ExecutorService pool = Executors.newFixedThreadPool(6);
    try {
      List<Callable<Boolean>> claims = new ArrayList<>();
      for (int i = 0; i < 6; i++) {
        String owner = "worker-" + i;
        claims.add(
            () -> store.compareAndSet(1, job.claim(owner, T0.plusSeconds(9), owner, T0)).applied());
      }
      // WHEN they race
      long winners = 0;
      for (Future<Boolean> f : pool.invokeAll(claims)) {
        winners += f.get() ? 1 : 0;
      }
      // THEN exactly one holds the lease
      assertThat(winners).isEqualTo(1);
      assertThat(store.find(job.id()).orElseThrow().state()).isEqualTo(JobState.RUNNING);
    } finally {
      pool.shutdownNow();
    }
  }

  @Test
  void createIfAbsent_beyondTheTenantsActiveBound_isRefused_withTheCount() {
    // GIVEN a tenant with two active jobs under a bound of two
    JobStore store = store();
    String tenant = newTenant();
    store.createIfAbsent(newJob(tenant), JobLimits.active(2));
    store.createIfAbsent(newJob(tenant), JobLimits.active(2));
    // WHEN a third is created, and another tenant's first
    Job third = newJob(tenant);
    JobStore.CreateResult refused = store.createIfAbsent(third, JobLimits.active(2));
    JobStore.CreateResult other = store.createIfAbsent(newJob(newTenant()), JobLimits.active(2));
    // THEN the third is refused with the count and not stored; the other tenant is unaffected
    assertThat(refused)
        .isEqualTo(
            new JobStore.CreateResult.Refused(
                new JobLimits.Reached(JobLimits.Limit.ACTIVE_PER_TENANT, tenant, 2, 2)));
    assertThat(store.find(third.id())).isEmpty();
    assertThat(other).isInstanceOf(JobStore.CreateResult.Created.class);
    assertThat(store.usage(tenant).active()).isEqualTo(2);
    assertThat(store.usage(tenant).runningOfTenant()).isZero();
  }

  @Test
  void everyTerminalTransition_releasesTheActivePlace_andRetriesNeverCountTwice() {
    // GIVEN a tenant at its bound of three: one pending, one running, one cancelled-to-be
    JobStore store = store();
    String tenant = newTenant();
    Job pending = newJob(tenant);
    Job running = newJob(tenant);
    Job cancelled = newJob(tenant);
    for (Job j : List.of(pending, running, cancelled)) {
      store.createIfAbsent(j, JobLimits.active(3));
      store.createIfAbsent(j, JobLimits.active(3)); // a resend: still one place
    }
    Job claimed = running.claim("w", T0.plusSeconds(60), "q1", T0);
    store.compareAndSet(1, claimed);
    assertThat(store.usage(tenant))
        .isEqualTo(new JobLimits.Usage(3, 1, store.usage(tenant).running()));
    // WHEN one succeeds, one is cancelled and one fails (expiry, poison: all are FAILED writes)
    store.compareAndSet(2, claimed.succeed("m", 1, T0));
    store.compareAndSet(1, cancelled.cancel(T0));
    store.compareAndSet(1, pending.fail(ErrorCode.DEADLINE_EXCEEDED, "expired", T0));
    // THEN every place is free again and a new job fits
    assertThat(store.usage(tenant).active()).isZero();
    assertThat(store.usage(tenant).runningOfTenant()).isZero();
    assertThat(store.createIfAbsent(newJob(tenant), JobLimits.active(1)))
        .isInstanceOf(JobStore.CreateResult.Created.class);
  }

  @Test
  void claim_beyondTheTenantsRunningBound_isRefused_andLeavesTheJobPending() {
    // GIVEN a tenant running one job under a per-tenant running bound of one
    JobStore store = store();
    String tenant = newTenant();
    JobLimits lease = JobLimits.running(1, Integer.MAX_VALUE);
    Job first = newJob(tenant);
    Job second = newJob(tenant);
    store.createIfAbsent(first);
    store.createIfAbsent(second);
    Job firstRunning = first.claim("w1", T0.plusSeconds(60), "q1", T0);
    assertThat(store.compareAndSet(1, firstRunning, lease).applied()).isTrue();
    // WHEN its second job is claimed
    JobStore.CasResult refused =
        store.compareAndSet(1, second.claim("w2", T0.plusSeconds(60), "q2", T0), lease);
    // THEN it is refused, naming the bound, and the job is still PENDING at version 1
    assertThat(refused)
        .isEqualTo(
            new JobStore.CasResult.Refused(
                second, new JobLimits.Reached(JobLimits.Limit.RUNNING_PER_TENANT, tenant, 1, 1)));
    assertThat(store.find(second.id())).contains(second);
    // AND a renewal of the running one is never refused, and its release frees the place
    Job renewed = firstRunning.renew(T0.plusSeconds(120), 5, T0);
    assertThat(store.compareAndSet(2, renewed, lease).applied()).isTrue();
    assertThat(store.compareAndSet(3, renewed.release(T0), lease).applied()).isTrue();
    assertThat(store.compareAndSet(1, second.claim("w2", T0.plusSeconds(60), "q2", T0), lease))
        .isInstanceOf(JobStore.CasResult.Applied.class);
  }

  @Test
  void claim_beyondTheGlobalRunningBound_isRefused_forEveryTenant() {
    // GIVEN as many running jobs overall as the store holds now, plus one of tenant a
    JobStore store = store();
    Job a = newJob(newTenant());
    store.createIfAbsent(a);
    store.compareAndSet(1, a.claim("w1", T0.plusSeconds(60), "q1", T0));
    int running = store.usage("nobody").running();
    JobLimits lease = JobLimits.running(10, running);
    // WHEN another tenant's job is claimed under a global bound of exactly that many
    Job b = newJob(newTenant());
    store.createIfAbsent(b);
    JobStore.CasResult refused =
        store.compareAndSet(1, b.claim("w2", T0.plusSeconds(60), "q2", T0), lease);
    // THEN it is refused by the global bound
    assertThat(refused).isInstanceOf(JobStore.CasResult.Refused.class);
    assertThat(((JobStore.CasResult.Refused) refused).reached().limit())
        .isEqualTo(JobLimits.Limit.RUNNING);
  }

  @Test
  void racingCreates_neverExceedTheBound() throws Exception {
    // GIVEN a tenant with a bound of three and eight submissions racing
    JobStore store = store();
    String tenant = newTenant();
    ExecutorService pool = Executors.newFixedThreadPool(8);
    try {
      List<Callable<Boolean>> creates = new ArrayList<>();
      for (int i = 0; i < 8; i++) {
        creates.add(
            () ->
                store.createIfAbsent(newJob(tenant), JobLimits.active(3))
                    instanceof JobStore.CreateResult.Created);
      }
      long created = 0;
      for (Future<Boolean> f : pool.invokeAll(creates)) {
        created += f.get() ? 1 : 0;
      }
      // THEN exactly three were created and counted
      assertThat(created).isEqualTo(3);
      assertThat(store.usage(tenant).active()).isEqualTo(3);
    } finally {
      pool.shutdownNow();
    }
  }

  protected static String newTenant() {
    return "t" + UUID.randomUUID().toString().substring(0, 8);
  }

  /** A new PENDING job of {@code tenant} expiring an hour after {@link #T0}. */
  public static Job newJob(String tenant) {
    return Job.pending(
        "j-" + UUID.randomUUID().toString().replace("-", ""),
        tenant,
        "alice",
        "fp",
        new byte[] {1},
        T0,
        T0.plusSeconds(3600));
  }

  private static Job newJobWithId(String id, String fingerprint) {
    return Job.pending(id, "acme", "alice", fingerprint, new byte[] {9}, T0, T0.plusSeconds(60));
  }
}
