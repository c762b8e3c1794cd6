package dev.lake.core.local;

import static org.assertj.core.api.Assertions.assertThat;

import dev.lake.core.job.Job;
import dev.lake.core.testing.Poll;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class FileJobStoreAwaitTest {
  @TempDir Path dir;

  @Test
  void awaitChange_returnsWhenAWriteLands_notAfterItsMaximum() throws Exception {
    // GIVEN a pending job and a waiter allowed to wait ten minutes for it to change
    FileJobStore store = new FileJobStore(dir);
    Instant now = Instant.parse("2030-01-01T00:00:00Z");
    Job job = Job.pending("j-1", "acme", "alice", "fp", new byte[] {1}, now, now.plusSeconds(3600));
    store.createIfAbsent(job);
    CompletableFuture<Void> waiter = new CompletableFuture<>();
    Thread waiting =
        new Thread(
            () -> {
              try {
                store.awaitChange("j-1", 1, Duration.ofMinutes(10));
                waiter.complete(null);
              } catch (InterruptedException | RuntimeException e) {
                waiter.completeExceptionally(e);
              }
            },
            "await-change");
    waiting.start();
    // ... that is parked inside awaitChange (not merely started)
    Poll.until(
        Duration.ofSeconds(10),
        () -> waiting.getState() == Thread.State.TIMED_WAITING,
        "the waiter blocks in awaitChange");
    assertThat(waiter).isNotDone();
    // WHEN a worker claims the job
    store.compareAndSet(1, job.claim("w", now.plusSeconds(60), "q", now));
    // THEN the waiter wakes up at once (well within the test's bound, far below its maximum)
    waiter.get(30, TimeUnit.SECONDS);
  }

  @Test
  void awaitChange_returnsAtOnce_whenTheVersionAlreadyMoved() throws Exception {
    FileJobStore store = new FileJobStore(dir);
    Instant now = Instant.parse("2030-01-01T00:00:00Z");
    Job job = Job.pending("j-2", "acme", "alice", "fp", new byte[] {1}, now, now.plusSeconds(3600));
    store.createIfAbsent(job);
    store.compareAndSet(1, job.claim("w", now.plusSeconds(60), "q", now));
    CompletableFuture.runAsync(
            () -> {
              try {
                store.awaitChange("j-2", 1, Duration.ofMinutes(10));
              } catch (InterruptedException e) {
                throw new IllegalStateException(e);
              }
            })
        .get(30, TimeUnit.SECONDS);
  }
}
