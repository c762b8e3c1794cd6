package dev.lake.frontdoor;

import static dev.lake.frontdoor.TestLake.ALICE;
import static dev.lake.frontdoor.TestLake.bearer;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.google.protobuf.Any;
import dev.lake.core.Json;
import dev.lake.core.TableRef;
import dev.lake.durable.DurableTierConfig;
import io.micrometer.core.instrument.DistributionSummary;
import io.micrometer.core.instrument.Timer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.apache.arrow.flight.FlightClient;
import org.apache.arrow.flight.FlightDescriptor;
import org.apache.arrow.flight.FlightEndpoint;
import org.apache.arrow.flight.FlightInfo;
import org.apache.arrow.flight.FlightStream;
import org.apache.arrow.flight.Location;
import org.apache.arrow.flight.PollInfo;
import org.apache.arrow.flight.Ticket;
import org.apache.arrow.flight.sql.FlightSqlClient;
import org.apache.arrow.flight.sql.impl.FlightSql.CommandStatementQuery;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The audit trail and per-query accounting through real Flight clients against a real lake (Lance
 * TPC-H SF 0.01, DuckDB engine, durable tier with one in-process worker).
 */
class QueryAuditEndToEndTest {
  private static final TableRef LINEITEM = TableRef.parse("lake.tpch.lineitem");
  private static final String SQL =
      "SELECT l_orderkey, l_quantity FROM lake.tpch.lineitem WHERE l_quantity < 10";

  /**
   * The durable test reads another table: lineitem is read once in this class, so the engine's
   * snapshot cache (which copies a snapshot read twice) never serves it and its scan is counted.
   */
  private static final String DURABLE_SQL =
      "SELECT o_orderkey FROM lake.tpch.orders WHERE o_totalprice < 20000";

  @TempDir static Path dir;
  static TestLake lake;
  static FlightSqlClient sql;
  static FlightClient flight;

  @BeforeAll
  static void start() {
    lake = TestLake.startDurable(dir, DurableTierConfig.defaults().withWorkers(1));
    sql = lake.client();
    flight =
        FlightClient.builder(lake.allocator, Location.forGrpcInsecure("127.0.0.1", lake.port()))
            .build();
  }

  @AfterAll
  static void stop() throws Exception {
    sql.close();
    flight.close();
    lake.close();
  }

  @BeforeEach
  void forgetEarlierLines() {
    lake.auditLines.clear();
  }

  @Test
  void interactiveQuery_auditsQueryIdSnapshotsAndAccounting_neverTokenOrSql() throws Exception {
    // GIVEN alice's statement over lineitem, sealed by GetFlightInfo
    FlightInfo info = sql.execute(SQL, bearer(ALICE));
    JsonNode planned = line("GET_FLIGHT_INFO");
    // WHEN its ticket is redeemed
    long rows = count(info.getEndpoints().get(0).getTicket());
    JsonNode streamed = line("DO_GET");
    // THEN both lines name alice, one query id and the exact Lance version read
    String pin = "lance version " + lake.snapshot(LINEITEM).version();
    for (JsonNode audit : List.of(planned, streamed)) {
      assertThat(audit.get("tenant").asText()).isEqualTo("acme");
      assertThat(audit.get("principal").asText()).isEqualTo("alice");
      assertThat(audit.get("snapshots").get("lake.tpch.lineitem").asText()).isEqualTo(pin);
      assertThat(audit.get("outcome").asText()).isEqualTo("ok");
    }
    assertThat(planned.get("query").asText()).matches("[0-9a-f]{16}");
    assertThat(streamed.get("query").asText()).isEqualTo(planned.get("query").asText());
    assertThat(planned.get("planningMs").asLong()).isNotNegative();
    // AND the DoGet line carries the rows, egress and a plausible accounting of the Lance scan
    assertThat(rows).isPositive();
    assertThat(streamed.get("rows").asLong()).isEqualTo(rows);
    assertThat(streamed.get("bytes").asLong()).isGreaterThanOrEqualTo(rows * 8);
    JsonNode accounting = streamed.get("accounting");
    assertThat(accounting.get("scannedBytes").asLong()).isBetween(rows * 8, sizeOnDisk(LINEITEM));
    assertThat(accounting.get("resultBytes").asLong()).isGreaterThanOrEqualTo(rows * 8);
    assertThat(accounting.get("memoryPeakBytes").asLong()).isPositive();
    assertThat(accounting.get("spillBytes").asLong()).isNotNegative();
    assertThat(streamed.get("firstBatchMs").asLong())
        .isBetween(0L, streamed.get("downloadMs").asLong());
    // AND nothing the client sent verbatim is in any line
    for (JsonNode audit : List.of(planned, streamed)) {
      assertThat(audit.toString())
          .doesNotContain(ALICE)
          .doesNotContain(Principals.sha256Hex(ALICE))
          .doesNotContain("l_quantity < 10");
    }
    // AND the meters counted the query for its tenant
    DistributionSummary scanned =
        lake.meters.get("lake.query.scanned.bytes").tag("tenant", "acme").summary();
    assertThat(scanned.totalAmount()).isPositive();
    Timer planning = lake.meters.get("lake.query.planning").timer();
    assertThat(planning.count()).isPositive();
    assertThat(lake.meters.get("lake.query.download").timer().count()).isPositive();
  }

  @Test
  void durableQuery_auditsTheJobOnSubmitPollAndPartDownload() throws Exception {
    // GIVEN a durable submission polled to the end
    FlightDescriptor command =
        FlightDescriptor.command(
            Any.pack(CommandStatementQuery.newBuilder().setQuery(DURABLE_SQL).build())
                .toByteArray());
    PollInfo poll = flight.pollInfo(command, bearer(ALICE));
    long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
    while (poll.getFlightDescriptor().isPresent()) {
      assertThat(System.nanoTime()).as("job finished in time").isLessThan(deadline);
      poll = flight.pollInfo(poll.getFlightDescriptor().get(), bearer(ALICE));
    }
    List<JsonNode> polls = new ArrayList<>();
    polls.add(line("POLL_FLIGHT_INFO"));
    String job = polls.get(0).get("job").asText();
    assertThat(job).isNotBlank();
    assertThat(polls.get(0).get("snapshots").has("lake.tpch.orders")).isTrue();
    // WHEN every part is downloaded
    long rows = 0;
    for (FlightEndpoint endpoint : poll.getFlightInfo().getEndpoints()) {
      rows += count(endpoint.getTicket());
      // THEN each part's DoGet line names the same job
      JsonNode part = line("DO_GET");
      assertThat(part.get("job").asText()).isEqualTo(job);
      assertThat(part.get("downloadMs").asLong()).isNotNegative();
    }
    assertThat(rows).isPositive();
    // AND a fresh interactive query still works afterwards
    assertThat(count(sql.execute(DURABLE_SQL, bearer(ALICE)).getEndpoints().get(0).getTicket()))
        .isEqualTo(rows);
  }

  private static long count(Ticket ticket) throws Exception {
    long rows = 0;
    try (FlightStream s = sql.getStream(ticket, bearer(ALICE))) {
      while (s.next()) {
        rows += s.getRoot().getRowCount();
      }
    }
    return rows;
  }

  /** The next audit line of {@code rpc} (others are skipped); lines are written on completion. */
  private static JsonNode line(String rpc) throws Exception {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
    while (System.nanoTime() < deadline) {
      String line = lake.auditLines.poll(100, TimeUnit.MILLISECONDS);
      if (line != null) {
        JsonNode audit = Json.mapper().readTree(line);
        if (audit.get("rpc").asText().equals(rpc)) {
          return audit;
        }
      }
    }
    throw new AssertionError("no " + rpc + " audit line within 10 s");
  }

  private static long sizeOnDisk(TableRef ref) throws Exception {
    Path location = Path.of(lake.registry.find(ref).orElseThrow().location());
    try (Stream<Path> files = Files.walk(location)) {
      return files.filter(Files::isRegularFile).mapToLong(p -> p.toFile().length()).sum();
    }
  }
}
