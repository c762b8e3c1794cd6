package dev.lake.frontdoor;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import org.apache.arrow.flight.CallInfo;
import org.apache.arrow.flight.CallStatus;
import org.apache.arrow.flight.FlightCallHeaders;
import org.apache.arrow.flight.FlightMethod;
import org.apache.arrow.flight.FlightRuntimeException;
import org.apache.arrow.flight.FlightStatusCode;
import org.junit.jupiter.api.Test;

class CallLimitTest {
  static final CallInfo DO_GET = new CallInfo(FlightMethod.DO_GET);

  @Test
  void factory_refusesCallsBeyondTheLimit_withResourceExhausted_andAdmitsAgainAfterCompletion() {
    // GIVEN an executor of 8 threads: 6 admitted calls
    CallLimit.Factory factory =
        new CallLimit.Factory(CallLimit.limit(new FlightExecutorConfig(8, 0)));
    List<CallLimit> running = new ArrayList<>();
    for (int i = 0; i < 6; i++) {
      running.add(factory.onCallStarted(DO_GET, new FlightCallHeaders(), null));
    }
    // WHEN a seventh call starts THEN it is refused at once
    assertThatThrownBy(() -> factory.onCallStarted(DO_GET, new FlightCallHeaders(), null))
        .isInstanceOf(FlightRuntimeException.class)
        .hasMessageContaining("6 calls are in flight")
        .satisfies(
            e ->
                assertThat(((FlightRuntimeException) e).status().code())
                    .isEqualTo(FlightStatusCode.RESOURCE_EXHAUSTED));
    assertThat(factory.active()).isEqualTo(6);
    // AND a completed and a cancelled call (reported twice) each free exactly one place
    running.get(0).onCallCompleted(CallStatus.CANCELLED);
    running.get(1).onCallErrored(new RuntimeException("client went away"));
    running.get(1).onCallCompleted(CallStatus.CANCELLED);
    assertThat(factory.active()).isEqualTo(4);
    factory.onCallStarted(DO_GET, new FlightCallHeaders(), null);
    assertThat(factory.active()).isEqualTo(5);
  }

  @Test
  void executor_runsWhatItCannotTake_onTheOverflowLane_whereCallsAreRefused() throws Exception {
    // GIVEN 4 threads and a queue of 2, all threads blocked and the queue full
    ExecutorService executor = CallLimit.executor(new FlightExecutorConfig(4, 2));
    CallLimit.Factory factory = new CallLimit.Factory(3);
    CountDownLatch release = new CountDownLatch(1);
    try {
      PoolThreads.blockTasks(executor, 6, release);
      // WHEN one more task arrives (a call's start, or a callback of a call in flight)
      CompletableFuture<Throwable> refusal = startCall(executor, factory);
      // THEN it runs at once without growing the threads or the queue, and a call starting
      // there is refused RESOURCE_EXHAUSTED 'retry later' without taking a place
      Throwable e = refusal.get(10, TimeUnit.SECONDS);
      assertThat(e).isInstanceOf(FlightRuntimeException.class);
      assertThat(((FlightRuntimeException) e).status().code())
          .isEqualTo(FlightStatusCode.RESOURCE_EXHAUSTED);
      assertThat(e.getMessage()).contains("retry later").contains("--flight-queue");
      assertThat(factory.active()).isZero();
      assertThat(((ThreadPoolExecutor) executor).getPoolSize()).isEqualTo(4);
      assertThat(((ThreadPoolExecutor) executor).getQueue()).hasSize(2);
    } finally {
      release.countDown();
      executor.shutdown();
      assertThat(executor.awaitTermination(10, TimeUnit.SECONDS)).isTrue();
    }
    // AND once shut down it takes nothing more
    assertThatThrownBy(() -> executor.execute(() -> {}))
        .isInstanceOf(RejectedExecutionException.class);
  }

  @Test
  void executor_withoutAQueue_handsEachTaskToTheThreadIdleLast_insteadOfWakingAnotherOne()
      throws Exception {
    // GIVEN the default executor: 64 threads and no queue
    ThreadPoolExecutor executor =
        (ThreadPoolExecutor) CallLimit.executor(FlightExecutorConfig.defaults());
    try {
      // WHEN 20 tasks run one after another, as the callbacks of a call do
      // (each handed over once the previous thread is idle again, waiting for its next task)
      List<String> ran = PoolThreads.runOneAfterAnother(executor, 20);
      // THEN one thread ran them all: no thread is started or woken while one is idle (with a
      // queue, every task woke the thread idle longest and the pool grew to its 64 threads)
      assertThat(ran).containsOnly(ran.get(0));
      assertThat(executor.getPoolSize()).isEqualTo(1);
      assertThat(executor.getQueue()).isEmpty();
    } finally {
      executor.shutdown();
      assertThat(executor.awaitTermination(10, TimeUnit.SECONDS)).isTrue();
    }
  }

  @Test
  void executor_withoutAQueue_runsWhatFindsEveryThreadBusy_onTheOverflowLane() throws Exception {
    // GIVEN 4 threads, no queue, all threads blocked
    ExecutorService executor = CallLimit.executor(new FlightExecutorConfig(4, 0));
    CallLimit.Factory factory = new CallLimit.Factory(3);
    CountDownLatch release = new CountDownLatch(1);
    try {
      PoolThreads.blockTasks(executor, 4, release);
      // WHEN a call starts THEN it runs at once on the lane and is refused 'retry later'
      CompletableFuture<Throwable> refusal = startCall(executor, factory);
      Throwable e = refusal.get(10, TimeUnit.SECONDS);
      assertThat(e).isInstanceOf(FlightRuntimeException.class);
      assertThat(((FlightRuntimeException) e).status().code())
          .isEqualTo(FlightStatusCode.RESOURCE_EXHAUSTED);
      assertThat(e.getMessage()).contains("every Flight thread is taken");
      assertThat(factory.active()).isZero();
      assertThat(((ThreadPoolExecutor) executor).getPoolSize()).isEqualTo(4);
    } finally {
      release.countDown();
      executor.shutdown();
      assertThat(executor.awaitTermination(10, TimeUnit.SECONDS)).isTrue();
    }
  }

  @Test
  void config_defaults_andBounds() {
    assertThat(FlightExecutorConfig.defaults()).isEqualTo(new FlightExecutorConfig(64, 0));
    assertThat(CallLimit.limit(FlightExecutorConfig.defaults())).isEqualTo(48);
    assertThatThrownBy(() -> new FlightExecutorConfig(2, 0))
        .hasMessage("flightThreads must be between 4 and 4096: 2");
    assertThatThrownBy(() -> new FlightExecutorConfig(4, -1))
        .hasMessage("flightQueue must be between 0 and 65536: -1");
  }

  /**
   * Starts a DoGet through {@code factory} on the executor; completes with its refusal, or null.
   */
  private static CompletableFuture<Throwable> startCall(
      ExecutorService executor, CallLimit.Factory factory) {
    CompletableFuture<Throwable> refusal = new CompletableFuture<>();
    executor.execute(
        () -> {
          try {
            factory.onCallStarted(DO_GET, new FlightCallHeaders(), null);
            refusal.complete(null);
          } catch (Throwable e) {
            refusal.complete(e);
          }
        });
    return refusal;
  }
}
