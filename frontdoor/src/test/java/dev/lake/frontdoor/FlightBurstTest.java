package dev.lake.frontdoor;

import static dev.lake.frontdoor.TestLake.ALICE;
import static dev.lake.frontdoor.TestLake.bearer;
import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.apache.arrow.flight.FlightClient;
import org.apache.arrow.flight.FlightInfo;
import org.apache.arrow.flight.Location;
import org.apache.arrow.flight.sql.FlightSqlClient;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A burst of calls on one connection against the bounded Flight executor (default size): the
 * server's per-connection stream limit makes the calls take turns, so none is reset (INTERNAL) by
 * an overflowing executor queue or refused as busy. Without the limit, 1,000 concurrent
 * GetFlightInfo from one client (bench P6) got RST_STREAM INTERNAL_ERROR.
 */
class FlightBurstTest {
  @TempDir Path dir;

  @Test
  void burstOnOneConnection_isServedInTurn_neverResetNorRefused() throws Exception {
    // GIVEN a front door with the default Flight executor (64 threads, queue 256, 48 in flight)
    try (TestLake lake = TestLake.start(dir);
        LakeServer small =
            LakeServer.start(
                FrontDoorConfig.defaults().withListener("127.0.0.1", 0),
                lake.components,
                lake.principals,
                lake.clock,
                Optional.empty(),
                new CallObserver(new AuditLog(line -> {}), lake.meters),
                FlightExecutorConfig.defaults());
        FlightSqlClient client =
            new FlightSqlClient(
                FlightClient.builder(
                        lake.allocator, Location.forGrpcInsecure("127.0.0.1", small.port()))
                    .build())) {
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
}
