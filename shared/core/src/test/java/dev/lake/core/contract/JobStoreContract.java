package dev.lake.core.contract;

import static org.assertj.core.api.Assertions.assertThat;

import dev.lake.core.ErrorCode;
import dev.lake.core.job.Job;
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
    assertThat(again).isInstanceOf(JobStore.CreateResult.Existing.class);
    assertThat(again.job()).isEqualTo(job);
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

  private static Job newJobWithId(String id, String fingerprint) {
    return Job.pending(id, "acme", "alice", fingerprint, new byte[] {9}, T0, T0.plusSeconds(60));
  }
}
