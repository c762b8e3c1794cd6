package dev.lake.frontdoor;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

class ProducerPoolTest {
  @Test
  void streamsOneAfterAnother_runOnTheThreadIdleLast_withoutStartingOrWakingAnother()
      throws Exception {
    // GIVEN a pool of 16 producer threads
    ProducerPool pool = new ProducerPool(16);
    try {
      // WHEN 20 streams run one after another
      List<String> ran = PoolThreads.runOneAfterAnother(pool, 20);
      // THEN one thread produced them all and the backlog never started
      assertThat(ran).containsOnly(ran.get(0));
      assertThat(pool.getPoolSize()).isEqualTo(1);
      assertThat(pool.backlogThreads()).isZero();
    } finally {
      pool.shutdownNow();
      assertThat(pool.awaitTermination(10, TimeUnit.SECONDS)).isTrue();
    }
  }

  @Test
  void aStreamFindingEveryThreadBusy_runsOnTheBacklog_andNothingIsRefusedUntilShutdown()
      throws Exception {
    // GIVEN a pool of 1 thread, busy with a stream that has freed its slot but not its thread
    ProducerPool pool = new ProducerPool(1);
    CountDownLatch release = new CountDownLatch(1);
    PoolThreads.blockTasks(pool, 1, release);
    try {
      // WHEN the next admitted stream starts
      CompletableFuture<String> next = new CompletableFuture<>();
      pool.execute(() -> next.complete(Thread.currentThread().getName()));
      // THEN it runs at once on a backlog thread
      assertThat(next.get(10, TimeUnit.SECONDS)).startsWith("lake-stream-");
      assertThat(pool.backlogThreads()).isEqualTo(1);
    } finally {
      release.countDown();
    }
    // AND once shut down, both pools end and a stream is refused
    pool.shutdownNow();
    assertThat(pool.awaitTermination(10, TimeUnit.SECONDS)).isTrue();
    assertThatThrownBy(() -> pool.execute(() -> {}))
        .isInstanceOf(RejectedExecutionException.class)
        .hasMessage("the result streamer is closed");
  }
}
