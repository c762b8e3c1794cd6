package dev.lake.frontdoor;

import static dev.lake.frontdoor.TestLake.ALICE;
import static dev.lake.frontdoor.TestLake.CAROL;
import static dev.lake.frontdoor.TestLake.bearer;
import static org.assertj.core.api.Assertions.assertThat;

import dev.lake.durable.Outcome;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.stream.Collectors;
import org.apache.arrow.flight.FlightClient;
import org.apache.arrow.flight.FlightInfo;
import org.apache.arrow.flight.FlightRuntimeException;
import org.apache.arrow.flight.FlightStatusCode;
import org.apache.arrow.flight.FlightStream;
import org.apache.arrow.flight.Location;
import org.apache.arrow.flight.sql.FlightSqlClient;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Bursts of calls against the bounded Flight executor. On one connection, the server's
 * per-connection stream limit makes the calls take turns, so none is reset (INTERNAL) by an
 * overflowing executor queue or refused as busy (without the limit, 1,000 concurrent GetFlightInfo
 * from one client, bench P6, got RST_STREAM INTERNAL_ERROR). Over many connections the limit does
 * not help: calls beyond the executor's threads and queue are refused RESOURCE_EXHAUSTED 'retry
 * later' instead of reset.
 */
class FlightBurstTest {
  @TempDir static Path dir;
  static TestLake lake;

  @BeforeAll
  static void start() {
    lake = TestLake.start(dir);
  }

  @AfterAll
  static void stop() {
    lake.close();
  }

  @Test
  void burstOnOneConnection_isServedInTurn_neverResetNorRefused() throws Exception {
    // GIVEN a front door with the default Flight executor (64 threads, no queue, 48 in flight)
    try (LakeServer small = start(FrontDoorConfig.defaults(), FlightExecutorConfig.defaults());
        FlightSqlClient client = connect(small)) {
      ExecutorService pool = Executors.newFixedThreadPool(256);
      try {
        // WHEN 1,000 GetFlightInfo calls start at once on the client's one connection
        List<Future<FlightInfo>> calls = new ArrayList<>();
        for (int i = 0; i < 1_000; i++) {
          String sql = "SELECT count(*) + " + i + " AS burst_" + i + " FROM lake.tpch.nation";
          calls.add(pool.submit(() -> client.execute(sql, bearer(ALICE))));
        }
        // THEN every one is answered with its endpoint
        for (Future<FlightInfo> call : calls) {
          assertThat(call.get(120, TimeUnit.SECONDS).getEndpoints()).hasSize(1);
        }
      } finally {
        pool.shutdownNow();
      }
      // AND a fresh, never-seen statement still runs on that front door
      HostileInputTest.assertFreshQuery(client, ALICE);
    }
  }

  @Test
  void burstOverManyConnections_beyondTheExecutor_isRefusedRetryLater_neverReset()
      throws Exception {
    // GIVEN the smallest Flight executor (4 threads, no queue: 3 calls in flight, 1 per
    // connection) whose admitted calls all wait, because carol's only slot is held by a stream
    // (on a connection of its own: an unread stream keeps its connection's one call place)
    int connections = 16;
    FrontDoorConfig config = FrontDoorConfig.defaults().withLimits(8, 1, Duration.ofSeconds(5));
    List<FlightSqlClient> clients = new ArrayList<>();
    ExecutorService pool = Executors.newFixedThreadPool(64);
    try (LakeServer small = start(config, new FlightExecutorConfig(4, 0));
        FlightSqlClient holder = connect(small)) {
      for (int c = 0; c < connections; c++) {
        clients.add(connect(small));
      }
      String huge = "SELECT * FROM range(10000000000)";
      try (FlightStream held =
          holder.getStream(
              holder.execute(huge, bearer(CAROL)).getEndpoints().get(0).getTicket(),
              bearer(CAROL))) {
        assertThat(held.next()).isTrue();
        // WHEN 64 GetFlightInfo of carol's start at once over 16 connections
        CountDownLatch go = new CountDownLatch(1);
        List<Future<Outcome>> calls = new ArrayList<>();
        for (int i = 0; i < 64; i++) {
          FlightSqlClient client = clients.get(i % connections);
          String sql = "SELECT count(*) + " + i + " AS many_" + i + " FROM lake.tpch.nation";
          calls.add(
              pool.submit(
                  () -> {
                    go.await();
                    return Outcome.of(() -> client.execute(sql, bearer(CAROL)));
                  }));
        }
        go.countDown();
        List<Outcome> outcomes = new ArrayList<>();
        for (Future<Outcome> call : calls) {
          outcomes.add(call.get(120, TimeUnit.SECONDS));
        }
        // THEN every call ends with a status that says to retry later, never a reset (INTERNAL):
        // RESOURCE_EXHAUSTED when the executor is full, UNAVAILABLE after waiting in vain for
        // carol's slot
        Map<FlightStatusCode, Long> codes =
            outcomes.stream().collect(Collectors.groupingBy(Outcome::code, Collectors.counting()));
        System.out.println(
            "burst over "
                + connections
                + " connections: "
                + outcomes.stream()
                    .collect(
                        Collectors.groupingBy(
                            o -> o.code() + " " + o.message().replaceAll("[0-9]+", "N"),
                            Collectors.counting())));
        assertThat(codes)
            .containsKey(FlightStatusCode.RESOURCE_EXHAUSTED)
            .containsOnlyKeys(FlightStatusCode.RESOURCE_EXHAUSTED, FlightStatusCode.UNAVAILABLE);
        assertThat(outcomes).allSatisfy(o -> assertThat(o.message()).contains("retry later"));
        held.cancel("done", null);
      }
      awaitNoStreams(small);
      // AND a fresh, never-seen statement still runs on a connection of the burst
      HostileInputTest.assertFreshQuery(clients.get(1), ALICE);
    } finally {
      pool.shutdownNow();
      for (FlightSqlClient c : clients) {
        c.close();
      }
    }
  }

  /** How one call ended: its status code and message (OK and empty when it succeeded). */
  record Outcome(FlightStatusCode code, String message) {
    static Outcome of(Runnable call) {
      try {
        call.run();
        return new Outcome(FlightStatusCode.OK, "");
      } catch (FlightRuntimeException e) {
        return new Outcome(e.status().code(), String.valueOf(e.getMessage()));
      }
    }
  }

  private static LakeServer start(FrontDoorConfig config, FlightExecutorConfig executor) {
    return LakeServer.start(
        config.withListener("127.0.0.1", 0),
        lake.components,
        lake.principals,
        lake.clock,
        Optional.empty(),
        new CallObserver(new AuditLog(line -> {}), lake.meters),
        executor);
  }

  /** A client on its own connection (one gRPC channel each). */
  private static FlightSqlClient connect(LakeServer server) {
    return new FlightSqlClient(
        FlightClient.builder(lake.allocator, Location.forGrpcInsecure("127.0.0.1", server.port()))
            .build());
  }

  private static void awaitNoStreams(LakeServer server) {
    long deadline = System.nanoTime() + Duration.ofSeconds(20).toNanos();
    while (server.activeStreams() != 0) {
      assertThat(System.nanoTime()).as("streams released").isLessThan(deadline);
      LockSupport.parkNanos(1_000_000); // poll, leaving the cores to the server
    }
  }
}
