package dev.lake.frontdoor;

import static dev.lake.frontdoor.DurableFlightCalls.flightError;
import static dev.lake.frontdoor.DurableFlightCalls.pollToEnd;
import static dev.lake.frontdoor.DurableFlightCalls.rows;
import static dev.lake.frontdoor.DurableFlightCalls.statement;
import static dev.lake.frontdoor.HostileExecutionTest.awaitNoActiveStreams;
import static dev.lake.frontdoor.TestLake.ALICE;
import static dev.lake.frontdoor.TestLake.bearer;
import static org.assertj.core.api.Assertions.assertThat;

import dev.lake.core.job.ResultConfig;
import io.grpc.netty.NettyChannelBuilder;
import java.nio.file.Path;
import java.time.Duration;
import java.util.UUID;
import org.apache.arrow.flight.FlightClient;
import org.apache.arrow.flight.FlightGrpcUtils;
import org.apache.arrow.flight.FlightInfo;
import org.apache.arrow.flight.FlightRuntimeException;
import org.apache.arrow.flight.FlightStatusCode;
import org.apache.arrow.flight.FlightStream;
import org.apache.arrow.flight.Location;
import org.apache.arrow.flight.Ticket;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Durable result-part downloads take a slot of their own gates, not a query slot: they stream a
 * finished part and run no engine work. Each gate still bounds its tenant, with no queue wait here
 * so a full gate answers at once. Every test ends with a fresh query that must succeed.
 */
class PartDownloadGatesTest {
  /** One tenant slot for queries, one for part downloads; a full gate refuses at once. */
  static final int QUERY_SLOTS_PER_TENANT = 1;

  static final int PART_SLOTS_PER_TENANT = 1;

  /**
   * 4 M BIGINT rows, 32 MB of Arrow in one part: more than {@link #slowClient} takes ahead of its
   * reads (a few batches and its 64 KiB flow-control window), so when it stops reading the server
   * holds the stream, and with it the part slot.
   */
  static final String LONG_PART = "SELECT i FROM range(4000000) t(i)";

  /** An interactive result no client reads to its end. */
  static final String HUGE = "SELECT * FROM range(10000000000)";

  @TempDir static Path dir;
  static TestLake lake;
  static FlightClient client;

  /** A client whose transport takes little ahead of the reads (fixed 64 KiB window, no growth). */
  static FlightClient slowClient;

  @BeforeAll
  static void start() {
    lake =
        TestLake.startDurable(
            dir,
            // parts as shipped (up to 4 M rows / 64 MiB): LONG_PART is one part
            DurableEndToEndTest.tierConfig().withResults(ResultConfig.defaults()),
            frontDoor ->
                frontDoor
                    .withLimits(4, QUERY_SLOTS_PER_TENANT, Duration.ZERO)
                    .withPartDownloadLimits(4, PART_SLOTS_PER_TENANT));
    client =
        FlightClient.builder(lake.allocator, Location.forGrpcInsecure("127.0.0.1", lake.port()))
            .build();
    slowClient =
        FlightGrpcUtils.createFlightClient(
            lake.allocator,
            NettyChannelBuilder.forAddress("127.0.0.1", lake.port())
                .usePlaintext()
                .flowControlWindow(64 * 1024)
                .build());
  }

  @AfterAll
  static void stop() throws Exception {
    slowClient.close();
    client.close();
    lake.close();
  }

  /** AFTER every test: no stream left, and a statement this lake has never seen succeeds. */
  @AfterEach
  void aFreshQueryStillSucceeds() throws Exception {
    awaitNoActiveStreams(lake);
    String sql = "SELECT count(*) + 0 * " + UUID.randomUUID().hashCode() + " FROM lake.tpch.region";
    FlightInfo info = client.getInfo(statement(sql), bearer(ALICE));
    assertThat(rows(client, info.getEndpoints().get(0).getTicket(), ALICE)).containsExactly("5|");
    // the client saw the end of that stream before the server released its slot: wait for the
    // release, so the next test starts with the tenant's one query slot free (zero queue wait)
    awaitNoActiveStreams(lake);
  }

  private static FlightInfo finishedJob(String sql) {
    return pollToEnd(
            client,
            client.pollInfo(
                statement(sql),
                bearer(ALICE),
                DurableFlightCalls.header("x-lake-submission-id", UUID.randomUUID().toString())),
            ALICE)
        .getFlightInfo();
  }

  /** A DoGet whose client read one batch and then reads nothing: the server holds the stream. */
  private static FlightStream heldStream(Ticket ticket) {
    FlightStream stream = slowClient.getStream(ticket, bearer(ALICE));
    assertThat(stream.next()).isTrue();
    return stream;
  }

  @Test
  void partDownload_takesNoQuerySlot_soItRunsWhileTheTenantsOnlyQuerySlotIsHeld() throws Exception {
    // GIVEN alice's finished durable result
    FlightInfo result = finishedJob("SELECT * FROM lake.tpch.nation");
    // AND her tenant's only query slot held by an interactive stream she stopped reading
    FlightInfo huge = client.getInfo(statement(HUGE), bearer(ALICE));
    try (FlightStream held = heldStream(huge.getEndpoints().get(0).getTicket())) {
      FlightRuntimeException busy =
          flightError(() -> client.getInfo(statement("SELECT 1 AS q"), bearer(ALICE)));
      assertThat(busy.status().code()).isEqualTo(FlightStatusCode.UNAVAILABLE);
      assertThat(busy.getMessage()).contains("Server busy");
      // WHEN she downloads the result's part
      // THEN it streams: the part download needs no query slot
      assertThat(rows(client, result.getEndpoints().get(0).getTicket(), ALICE)).hasSize(25);
      held.cancel("done", null);
    }
  }

  @Test
  void partDownloads_beyondTheTenantsPartSlots_areRefused_untilTheHeldDownloadEnds()
      throws Exception {
    // GIVEN alice's finished results: one long part, one short
    FlightInfo longResult = finishedJob(LONG_PART);
    FlightInfo shortResult = finishedJob("SELECT * FROM lake.tpch.region");
    // AND her only part slot held by a download of the long part she stopped reading
    FlightStream held = heldStream(longResult.getEndpoints().get(0).getTicket());
    try {
      // WHEN she downloads another part at the same time
      FlightRuntimeException refused =
          flightError(() -> rows(client, shortResult.getEndpoints().get(0).getTicket(), ALICE));
      // THEN it is refused at once as busy: part downloads are bounded per tenant
      assertThat(refused.status().code()).isEqualTo(FlightStatusCode.UNAVAILABLE);
      assertThat(refused.getMessage()).contains("Server busy");
      // AND her queries still get their own slot meanwhile
      FlightInfo query = client.getInfo(statement("SELECT 2 AS q"), bearer(ALICE));
      assertThat(rows(client, query.getEndpoints().get(0).getTicket(), ALICE))
          .containsExactly("2|");
    } finally {
      held.cancel("done", null);
      held.close();
    }
    // AND once the held download ended, its slot is free again
    awaitNoActiveStreams(lake);
    assertThat(rows(client, shortResult.getEndpoints().get(0).getTicket(), ALICE)).hasSize(5);
  }
}
