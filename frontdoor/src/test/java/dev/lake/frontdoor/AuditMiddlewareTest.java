package dev.lake.frontdoor;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.lake.core.Json;
import dev.lake.core.QueryStats;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import org.apache.arrow.flight.CallInfo;
import org.apache.arrow.flight.CallStatus;
import org.apache.arrow.flight.FlightCallHeaders;
import org.apache.arrow.flight.FlightMethod;
import org.apache.arrow.flight.FlightStatusCode;
import org.apache.arrow.flight.RequestContext;
import org.junit.jupiter.api.Test;

/** When a call's audit line is written, relative to the call's end and its accounting. */
class AuditMiddlewareTest {
  private final List<String> lines = new CopyOnWriteArrayList<>();
  private final AuditMiddleware.Factory factory =
      new AuditMiddleware.Factory(
          new CallObserver(new AuditLog(lines::add), new SimpleMeterRegistry()), Clock.systemUTC());

  private AuditMiddleware doGet() {
    return factory.onCallStarted(
        new CallInfo(FlightMethod.DO_GET), new FlightCallHeaders(), NO_CONTEXT);
  }

  @Test
  void completedCall_waitsForPendingAccounting_thenWritesItsLineWithTheFigures() throws Exception {
    // GIVEN a DoGet whose stream ended while the engine's memory sample was still being taken
    AuditMiddleware call = doGet();
    CompletableFuture<QueryStats> accounting = new CompletableFuture<>();
    call.streamed(Duration.ofMillis(3), Duration.ofMillis(4), accounting);
    // WHEN the call completes THEN nothing is written yet (the status went out without waiting)
    call.onCallCompleted(new CallStatus(FlightStatusCode.OK, null, null, null));
    assertThat(lines).isEmpty();
    // WHEN the sample lands THEN the line is written once, with the figures
    accounting.complete(new QueryStats(100, 200, 250, 4096, 0));
    assertThat(lines).hasSize(1);
    JsonNode line = Json.mapper().readTree(lines.get(0));
    assertThat(line.toString())
        .contains("\"engineMemoryBytes\":4096")
        .contains("\"scannedBytes\":100");
    assertThat(line.get("firstBatchMs")).isNotNull();
  }

  @Test
  void completedCall_withoutAccounting_writesItsLineAtOnce() {
    // GIVEN a DoGet of a stored part (an execution that measures nothing)
    AuditMiddleware call = doGet();
    call.streamed(
        Duration.ofMillis(1),
        Duration.ofMillis(2),
        CompletableFuture.completedFuture(QueryStats.NONE));
    // WHEN it completes THEN its line is written at once, without accounting figures
    call.onCallCompleted(new CallStatus(FlightStatusCode.OK, null, null, null));
    assertThat(lines).hasSize(1);
    assertThat(lines.get(0)).doesNotContain("scannedBytes");
  }

  private static final RequestContext NO_CONTEXT =
      new RequestContext() {
        @Override
        public void put(String key, String value) {}

        @Override
        public String get(String key) {
          return null;
        }

        @Override
        public java.util.Set<String> keySet() {
          return java.util.Set.of();
        }

        @Override
        public String remove(String key) {
          return null;
        }
      };
}
