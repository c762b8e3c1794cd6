package dev.lake.frontdoor;

import static dev.lake.frontdoor.DurableFlightCalls.download;
import static dev.lake.frontdoor.DurableFlightCalls.failure;
import static dev.lake.frontdoor.DurableFlightCalls.flightError;
import static dev.lake.frontdoor.DurableFlightCalls.header;
import static dev.lake.frontdoor.DurableFlightCalls.pollToEnd;
import static dev.lake.frontdoor.DurableFlightCalls.rows;
import static dev.lake.frontdoor.DurableFlightCalls.statement;
import static dev.lake.frontdoor.TestLake.ALICE;
import static dev.lake.frontdoor.TestLake.BOB;
import static dev.lake.frontdoor.TestLake.CAROL;
import static dev.lake.frontdoor.TestLake.bearer;
import static org.assertj.core.api.Assertions.assertThat;

import dev.lake.core.job.JobState;
import dev.lake.core.job.ResultConfig;
import dev.lake.core.job.ResultManifest;
import dev.lake.core.local.FileJobStore;
import dev.lake.core.testing.Poll;
import dev.lake.durable.DurableTierConfig;
import dev.lake.durable.DurableTierConfigBuilder;
import dev.lake.durable.WorkerConfigBuilder;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.List;
import java.util.stream.Stream;
import org.apache.arrow.flight.CallOption;
import org.apache.arrow.flight.CancelFlightInfoRequest;
import org.apache.arrow.flight.CancelStatus;
import org.apache.arrow.flight.FlightClient;
import org.apache.arrow.flight.FlightDescriptor;
import org.apache.arrow.flight.FlightInfo;
import org.apache.arrow.flight.FlightRuntimeException;
import org.apache.arrow.flight.FlightStatusCode;
import org.apache.arrow.flight.Location;
import org.apache.arrow.flight.PollInfo;
import org.apache.arrow.flight.Ticket;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.io.TempDir;

/**
 * The durable tier end to end on local adapters: real Flight (PollFlightInfo, DoGet per part,
 * CancelFlightInfo), the real engine and the in-process worker, parts of at most 10,000 rows.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
public class DurableEndToEndTest {
  static final String LINEITEM =
      "SELECT * FROM lake.tpch.lineitem ORDER BY l_orderkey, l_linenumber";

  /**
   * A cross join no join algorithm shortcuts (4.5 billion hashed pairs): minutes of work, for
   * cancellation and wait budgets.
   */
  public static final String SLOW =
      "SELECT count(*) FROM lake.tpch.lineitem a, lake.tpch.orders b, lake.tpch.region c"
          + " WHERE hash(a.l_comment || b.o_comment || c.r_name) % 7 = 0";

  @TempDir static Path dir;
  static TestLake lake;
  static FlightClient client;

  @BeforeAll
  static void start() {
    lake = TestLake.startDurable(dir, tierConfig());
    client = client(lake.port());
  }

  /** Two in-process workers, parts of at most 10,000 rows; shared with the Parquet tests. */
  static DurableTierConfig tierConfig() {
    return DurableTierConfigBuilder.builder()
        .pollWait(Duration.ofMillis(500))
        .waitBudget(Duration.ofSeconds(4))
        .workers(2)
        .worker(
            WorkerConfigBuilder.builder()
                .lease(Duration.ofSeconds(4))
                .renewEvery(Duration.ofMillis(300))
                .maxExecution(Duration.ofMinutes(2))
                .lambdaMargin(Duration.ofSeconds(1))
                .retryDelay(Duration.ofMillis(200))
                .build())
        .build()
        .withResultPrefix("")
        .withResults(ResultConfig.defaults().withMaxPartRows(10_000).withMaxBatchRows(100_000));
  }

  @AfterAll
  static void stop() throws Exception {
    client.close();
    lake.close();
  }

  static FlightClient client(int port) {
    return FlightClient.builder(lake.allocator, Location.forGrpcInsecure("127.0.0.1", port))
        .build();
  }

  /** The result directories under {@code results/acme}, with their files. */
  static List<Path> resultDirsNow() {
    try {
      return resultDirs();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  static List<Path> resultDirs() throws IOException {
    Path tenant = dir.resolve("results").resolve("acme");
    if (!Files.isDirectory(tenant)) {
      return List.of();
    }
    try (Stream<Path> dirs = Files.list(tenant)) {
      return dirs.sorted().toList();
    }
  }

  static List<String> files(Path resultDir) throws IOException {
    try (Stream<Path> files = Files.list(resultDir)) {
      return files.map(p -> p.getFileName().toString()).sorted().toList();
    }
  }

  @Test
  @Order(1)
  void pollInfo_completesIntoParts_equalToInteractiveResult() throws Exception {
    // GIVEN the interactive result of the statement
    FlightInfo interactive = client.getInfo(statement(LINEITEM), bearer(ALICE));
    List<String> expected = rows(client, interactive.getEndpoints().get(0).getTicket(), ALICE);
    assertThat(expected).hasSize(60_175);
    // WHEN it is submitted with PollFlightInfo and polled to completion
    PollInfo first = client.pollInfo(statement(LINEITEM), bearer(ALICE));
    assertThat(first.getFlightDescriptor()).isPresent();
    PollInfo done = pollToEnd(client, first, ALICE);
    // THEN one endpoint per part (10,000 rows at most each), and the rows equal in order
    FlightInfo info = done.getFlightInfo();
    assertThat(info.getEndpoints()).hasSize(7);
    assertThat(info.getRecords()).isEqualTo(60_175);
    // same columns and types; both carry Flight SQL type metadata (table provenance is known
    // only to the interactive path, which still has the statement)
    assertThat(info.getSchema().getFields())
        .extracting(f -> f.getName() + " " + f.getType())
        .isEqualTo(
            interactive.getSchema().getFields().stream()
                .map(f -> f.getName() + " " + f.getType())
                .toList());
    assertThat(info.getSchema().findField("l_extendedprice").getMetadata())
        .containsEntry("ARROW:FLIGHT:SQL:PRECISION", "15")
        .containsEntry("ARROW:FLIGHT:SQL:SCALE", "2");
    assertThat(download(client, info, ALICE)).isEqualTo(expected);
    // AND the store holds exactly 7 parts plus one manifest under <tenant>/<query id>/
    List<Path> dirs = resultDirs();
    assertThat(dirs).hasSize(1);
    assertThat(files(dirs.get(0)))
        .containsExactly(
            "manifest.json",
            "part-00000.arrow",
            "part-00001.arrow",
            "part-00002.arrow",
            "part-00003.arrow",
            "part-00004.arrow",
            "part-00005.arrow",
            "part-00006.arrow");
  }

  @Test
  @Order(2)
  void resend_withSameSubmissionId_landsOnSameJob() {
    // GIVEN a finished job submitted under a client-chosen submission id
    String sql = "SELECT * FROM lake.tpch.orders";
    CallOption id = header("x-lake-submission-id", "report-2024-q1");
    PollInfo done = pollToEnd(client, client.pollInfo(statement(sql), bearer(ALICE), id), ALICE);
    int executions = lake.engine.executions.get();
    int jobs = new FileJobStore(dir.resolve("jobs")).ids().size();
    // WHEN the same request is sent again
    PollInfo again = client.pollInfo(statement(sql), bearer(ALICE), id);
    // THEN it answers from the same job: done at once, same parts, nothing executed or created
    assertThat(again.getFlightDescriptor()).isEmpty();
    assertThat(again.getFlightInfo().getEndpoints()).hasSize(2);
    assertThat(again.getFlightInfo().getRecords()).isEqualTo(done.getFlightInfo().getRecords());
    assertThat(lake.engine.executions.get()).isEqualTo(executions);
    assertThat(new FileJobStore(dir.resolve("jobs")).ids()).hasSize(jobs);
    // AND reusing the id for another statement is refused
    FlightRuntimeException reused =
        flightError(
            () -> client.pollInfo(statement("SELECT * FROM lake.tpch.nation"), bearer(ALICE), id));
    assertThat(reused.status().code()).isEqualTo(FlightStatusCode.INVALID_ARGUMENT);
    assertThat(reused.status().description())
        .isEqualTo(
            "Submission id was already used for a different statement; choose a new"
                + " x-lake-submission-id");
  }

  @Test
  @Order(3)
  void cancel_midRun_endsCancelled_withoutManifestOrParts() throws Exception {
    // GIVEN a slow job that a worker is running
    List<Path> before = resultDirs();
    PollInfo submitted = client.pollInfo(statement(SLOW), bearer(ALICE));
    FileJobStore store = new FileJobStore(dir.resolve("jobs"));
    Poll.until(
        Duration.ofSeconds(20),
        () ->
            store.ids().stream()
                .anyMatch(id -> store.find(id).orElseThrow().state() == JobState.RUNNING),
        "a worker claimed the job");
    // WHEN it is cancelled
    CancelStatus status =
        client
            .cancelFlightInfo(new CancelFlightInfoRequest(submitted.getFlightInfo()), bearer(ALICE))
            .getStatus();
    // THEN the cancel is acknowledged, and polling reports CANCELLED
    assertThat(status).isEqualTo(CancelStatus.CANCELLING);
    FlightRuntimeException polled =
        flightError(() -> client.pollInfo(submitted.getFlightDescriptor().get(), bearer(ALICE)));
    assertThat(polled.status().code()).isEqualTo(FlightStatusCode.CANCELLED);
    assertThat(polled.status().description()).isEqualTo("The query was cancelled");
    // AND the worker stops: no new result directory (no manifest, no leftover part) appears
    Poll.until(Duration.ofSeconds(20), () -> resultDirsNow().equals(before), "parts removed");
    // AND cancelling again answers CANCELLED
    assertThat(
            client
                .cancelFlightInfo(
                    new CancelFlightInfoRequest(submitted.getFlightInfo()), bearer(ALICE))
                .getStatus())
        .isEqualTo(CancelStatus.CANCELLED);
  }

  @Test
  @Order(4)
  void frontDoorRestart_betweenPolls_stillCompletes() throws Exception {
    // GIVEN a submitted job
    String sql = "SELECT * FROM lake.tpch.partsupp ORDER BY ps_partkey, ps_suppkey";
    PollInfo submitted = client.pollInfo(statement(sql), bearer(ALICE));
    // WHEN the front door (listener, workers, in-process queue) restarts on the same port
    lake.restart();
    // THEN polling with the old descriptor still completes, and every row downloads
    PollInfo done = pollToEnd(client, submitted, ALICE);
    assertThat(download(client, done.getFlightInfo(), ALICE)).hasSize(8_000);
  }

  @Test
  @Order(5)
  void parts_downloadFromAnyReplica() throws Exception {
    // GIVEN a finished job polled on this front door
    PollInfo done = pollToEnd(client, client.pollInfo(statement(LINEITEM), bearer(ALICE)), ALICE);
    // WHEN a second replica (shared key ring file, job directory, result store) serves it
    try (TestLake.Replica replica = lake.replica();
        FlightClient other = client(replica.server().port())) {
      // THEN its parts download there, and its descriptor polls there
      assertThat(download(other, done.getFlightInfo(), ALICE)).hasSize(60_175);
      PollInfo polled =
          other.pollInfo(
              FlightDescriptor.command(done.getFlightInfo().getDescriptor().getCommand()),
              bearer(ALICE));
      assertThat(polled.getFlightDescriptor()).isEmpty();
      assertThat(polled.getFlightInfo().getEndpoints()).hasSize(7);
    }
  }

  @Test
  @Order(6)
  void jdbc_withDurableHeader_readsEveryPartEndpoint() throws Exception {
    // GIVEN the JDBC driver with x-lake-durable=true (forwarded as a call header)
    int jobs = new FileJobStore(dir.resolve("jobs")).ids().size();
    String sql = "SELECT * FROM lake.tpch.lineitem WHERE l_quantity < 40";
    long expected;
    try (Connection c = DriverManager.getConnection(lake.jdbcUrl(ALICE));
        Statement s = c.createStatement();
        ResultSet rs = s.executeQuery(sql.replace("SELECT *", "SELECT count(*)"))) {
      rs.next();
      expected = rs.getLong(1);
    }
    // WHEN it runs a statement (retrying while the server says it is still running)
    long rows = 0;
    for (int attempt = 0; ; attempt++) {
      try (Connection c =
              DriverManager.getConnection(lake.jdbcUrl(ALICE) + "&x-lake-durable=true");
          Statement s = c.createStatement();
          ResultSet rs = s.executeQuery(sql)) {
        while (rs.next()) {
          rows++;
        }
        break;
      } catch (SQLException e) {
        assertThat(attempt).as("still running: " + e.getMessage()).isLessThan(10);
        assertThat(e.getMessage()).contains("run the same statement again");
      }
    }
    // THEN it read the whole result through the part endpoints of one new job
    assertThat(rows).isEqualTo(expected).isGreaterThan(10_000);
    assertThat(new FileJobStore(dir.resolve("jobs")).ids()).hasSize(jobs + 1);
  }

  @Test
  @Order(7)
  void getFlightInfo_withDurableHeader_answersUnavailable_whileJobRuns() {
    // GIVEN a statement slower than the wait budget (4 s), not submitted before
    String slow = SLOW.replace("% 7", "% 11");
    CallOption durable = header("x-lake-durable", "true");
    // WHEN GetFlightInfo asks for it durably
    FlightRuntimeException e =
        flightError(() -> client.getInfo(statement(slow), bearer(ALICE), durable));
    // THEN UNAVAILABLE names the job and says how to pick the result up
    assertThat(e.status().code()).isEqualTo(FlightStatusCode.UNAVAILABLE);
    assertThat(e.status().description())
        .startsWith("Query is still running as job j-")
        .endsWith("; run the same statement again to pick up its result");
    // AND the same statement through PollFlightInfo lands on that job, which can be cancelled
    PollInfo same = client.pollInfo(statement(slow), bearer(ALICE));
    assertThat(same.getFlightDescriptor()).isPresent();
    assertThat(
            client
                .cancelFlightInfo(new CancelFlightInfoRequest(same.getFlightInfo()), bearer(ALICE))
                .getStatus())
        .isIn(CancelStatus.CANCELLING, CancelStatus.CANCELLED);
    // AND without the header GetFlightInfo stays interactive: one statement-ticket endpoint
    FlightInfo interactive = client.getInfo(statement("SELECT 1 AS x"), bearer(ALICE));
    assertThat(interactive.getEndpoints()).hasSize(1);
    assertThat(DurableHandler.isSealed(interactive.getEndpoints().get(0).getTicket().getBytes()))
        .isFalse();
  }

  @Test
  @Order(8)
  void partTickets_tamperedForeignOrExpired_failClosed() throws Exception {
    // GIVEN a finished job's first part ticket
    PollInfo done = pollToEnd(client, client.pollInfo(statement(LINEITEM), bearer(ALICE)), ALICE);
    byte[] ticket = done.getFlightInfo().getEndpoints().get(0).getTicket().getBytes();
    int before = lake.engine.executions.get();
    // tampered: one ciphertext byte flipped
    byte[] tampered = ticket.clone();
    tampered[tampered.length - 20] ^= 1;
    assertThat(failure(() -> rowsOf(new Ticket(tampered), ALICE)))
        .isEqualTo(FlightStatusCode.UNAUTHENTICATED);
    // foreign: another principal of the tenant, and the same principal id in another tenant
    assertThat(failure(() -> rowsOf(new Ticket(ticket), BOB)))
        .isEqualTo(FlightStatusCode.UNAUTHORIZED);
    assertThat(failure(() -> rowsOf(new Ticket(ticket), CAROL)))
        .isEqualTo(FlightStatusCode.UNAUTHORIZED);
    // a poll descriptor is not a part ticket, and another principal's descriptor is unknown
    byte[] descriptor = done.getFlightInfo().getDescriptor().getCommand();
    assertThat(failure(() -> rowsOf(new Ticket(descriptor), ALICE)))
        .isEqualTo(FlightStatusCode.UNAUTHENTICATED);
    FlightRuntimeException unknown =
        flightError(() -> client.pollInfo(FlightDescriptor.command(descriptor), bearer(BOB)));
    assertThat(unknown.status().code()).isEqualTo(FlightStatusCode.NOT_FOUND);
    assertThat(unknown.status().description())
        .isEqualTo("Unknown or expired job; submit the query again");
    // expired: past the part-ticket lifetime (15 min) and clock skew
    lake.clock.advance(Duration.ofMinutes(16));
    FlightRuntimeException expired = flightError(() -> rowsOf(new Ticket(ticket), ALICE));
    assertThat(expired.status().code()).isEqualTo(FlightStatusCode.UNAUTHENTICATED);
    assertThat(expired.status().description())
        .isEqualTo("Ticket expired; run the statement again for a new ticket");
    assertThat(lake.engine.executions.get()).isEqualTo(before);
    // AND polling again issues fresh tickets that work
    PollInfo fresh = client.pollInfo(FlightDescriptor.command(descriptor), bearer(ALICE));
    assertThat(rows(client, fresh.getFlightInfo().getEndpoints().get(0).getTicket(), ALICE))
        .hasSize(10_000);
    assertThat(ResultManifest.FILE_NAME).isEqualTo("manifest.json");
  }

  static List<String> rowsOf(Ticket ticket, String token) {
    try {
      return rows(client, ticket, token);
    } catch (FlightRuntimeException e) {
      throw e;
    } catch (Exception e) {
      throw new AssertionError(e);
    }
  }
}
