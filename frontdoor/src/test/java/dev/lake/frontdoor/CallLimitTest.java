package dev.lake.frontdoor;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.RejectedExecutionException;
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
  void executor_isBounded_byThreadsAndQueue() throws Exception {
    // GIVEN 4 threads and a queue of 2, all threads blocked
    ExecutorService executor = CallLimit.executor(new FlightExecutorConfig(4, 2));
    CountDownLatch release = new CountDownLatch(1);
    try {
      for (int i = 0; i < 6; i++) {
        executor.execute(
            () -> {
              try {
                release.await();
              } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
              }
            });
      }
      // WHEN one more task arrives THEN it is rejected rather than growing threads or queue
      assertThatThrownBy(() -> executor.execute(() -> {}))
          .isInstanceOf(RejectedExecutionException.class);
    } finally {
      release.countDown();
      executor.shutdown();
      assertThat(executor.awaitTermination(10, TimeUnit.SECONDS)).isTrue();
    }
  }

  @Test
  void config_defaults_andBounds() {
    assertThat(FlightExecutorConfig.defaults()).isEqualTo(new FlightExecutorConfig(64, 256));
    assertThat(CallLimit.limit(FlightExecutorConfig.defaults())).isEqualTo(48);
    assertThatThrownBy(() -> new FlightExecutorConfig(2, 0))
        .hasMessage("flightThreads must be between 4 and 4096: 2");
    assertThatThrownBy(() -> new FlightExecutorConfig(4, -1))
        .hasMessage("flightQueue must be between 0 and 65536: -1");
  }
}
