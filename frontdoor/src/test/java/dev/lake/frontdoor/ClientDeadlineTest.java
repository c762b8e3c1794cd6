package dev.lake.frontdoor;

import static dev.lake.frontdoor.TestLake.ALICE;
import static dev.lake.frontdoor.TestLake.bearer;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.lake.core.ErrorCode;
import dev.lake.core.LakeException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Optional;
import org.apache.arrow.flight.FlightCallHeaders;
import org.apache.arrow.flight.FlightRuntimeException;
import org.apache.arrow.flight.FlightStatusCode;
import org.apache.arrow.flight.FlightStream;
import org.apache.arrow.flight.HeaderCallOption;
import org.apache.arrow.flight.Ticket;
import org.apache.arrow.flight.sql.FlightSqlClient;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The client-chosen interactive deadline ({@value RequestHeaders#TIMEOUT_HEADER}) through a real
 * Flight SQL client, against a lake whose default deadline (50 s) is far longer than the short
 * deadline asked and whose longest is 1 min.
 */
class ClientDeadlineTest {
  static final String FOREVER = HostileExecutionTest.FOREVER;

  @TempDir static Path dir;
  static TestLake lake;
  static FlightSqlClient client;
  static int fresh;

  @BeforeAll
  static void start() {
    lake =
        TestLake.start(
            dir,
            frontDoor -> frontDoor,
            engine ->
                engine.withTimeouts(
                    Duration.ofSeconds(50), Duration.ofMinutes(1), Duration.ofHours(1)));
    client = lake.client();
  }

  @AfterAll
  static void stop() throws Exception {
    client.close();
    lake.close();
  }

  /** AFTER each case: a never-seen statement without the header runs normally. */
  @AfterEach
  void aFreshStatementStillSucceeds() throws Exception {
    fresh++;
    String sql = "SELECT count(*) + " + fresh + " AS deadline_fresh FROM lake.tpch.region";
    Ticket ticket = client.execute(sql, bearer(ALICE)).getEndpoints().get(0).getTicket();
    try (FlightStream s = client.getStream(ticket, bearer(ALICE))) {
      assertThat(s.next()).isTrue();
      assertThat(((Number) s.getRoot().getVector(0).getObject(0)).longValue()).isEqualTo(5 + fresh);
    }
    HostileExecutionTest.awaitNoActiveStreams(lake);
  }

  static HeaderCallOption deadline(String millis) {
    FlightCallHeaders headers = new FlightCallHeaders();
    headers.insert(RequestHeaders.TIMEOUT_HEADER, millis);
    return new HeaderCallOption(headers);
  }

  static FlightRuntimeException flightError(Runnable call) {
    return HostileExecutionTest.flightError(call);
  }

  @Test
  void shortDeadline_endsTheStatementTimedOut_atTheClientsDeadline() {
    // GIVEN a statement that would run for days, asked with a 1.5 s deadline
    Ticket ticket =
        client.execute(FOREVER, bearer(ALICE), deadline("1500")).getEndpoints().get(0).getTicket();
    // WHEN its ticket is redeemed with the same header
    FlightRuntimeException e =
        flightError(
            () -> {
              try (FlightStream s = client.getStream(ticket, bearer(ALICE), deadline("1500"))) {
                while (s.next()) {
                  // drain
                }
              } catch (Exception ex) {
                throw ex instanceof RuntimeException r ? r : new RuntimeException(ex);
              }
            });
    // THEN it ends TIMED_OUT naming the client's deadline, not the server's 50 s default
    assertThat(e.status().code()).isEqualTo(FlightStatusCode.TIMED_OUT);
    assertThat(e.getMessage()).contains("deadline of 1.5s");
  }

  @Test
  void jdbcUrlProperty_isSentAsTheHeader_andEndsTheStatementAtTheClientsDeadline()
      throws Exception {
    // GIVEN the official JDBC driver with x-lake-timeout-ms in its URL
    String url = lake.jdbcUrl(ALICE) + "&" + RequestHeaders.TIMEOUT_HEADER + "=1500";
    try (java.sql.Connection c = java.sql.DriverManager.getConnection(url);
        java.sql.Statement st = c.createStatement()) {
      // WHEN it runs a statement that would run for days THEN it fails at the 1.5 s deadline
      assertThatThrownBy(
              () -> {
                try (java.sql.ResultSet rs = st.executeQuery(FOREVER)) {
                  while (rs.next()) {
                    // drain
                  }
                }
              })
          .isInstanceOf(java.sql.SQLException.class)
          .hasStackTraceContaining("deadline of 1.5s");
    }
  }

  @Test
  void deadlineOverTheMaximum_isInvalidArgument_namingTheMaximumAndTheDurableTier() {
    FlightRuntimeException e =
        flightError(() -> client.execute(FOREVER, bearer(ALICE), deadline("120000")));
    assertThat(e.status().code()).isEqualTo(FlightStatusCode.INVALID_ARGUMENT);
    assertThat(e.getMessage())
        .contains("PT2M")
        .contains("longest interactive deadline PT1M")
        .contains("--max-query-timeout")
        .contains("durable tier");
    assertThat(e.status().metadata().get("x-lake-error-code")).isEqualTo("INVALID_ARGUMENT");
  }

  @Test
  void deadlineOverTheMaximum_onDoGetOnly_isRefusedBeforeTheStatementRuns() {
    Ticket ticket = client.execute(FOREVER, bearer(ALICE)).getEndpoints().get(0).getTicket();
    FlightRuntimeException e =
        flightError(
            () -> {
              try (FlightStream s = client.getStream(ticket, bearer(ALICE), deadline("60001"))) {
                s.next();
              } catch (Exception ex) {
                throw ex instanceof RuntimeException r ? r : new RuntimeException(ex);
              }
            });
    assertThat(e.status().code()).isEqualTo(FlightStatusCode.INVALID_ARGUMENT);
    assertThat(lake.server.activeStreams()).isZero();
  }

  @ParameterizedTest
  @ValueSource(strings = {"soon", "-5", "0", "1.5", "99999999999999999999", " "})
  void malformedDeadline_isInvalidArgument(String value) {
    FlightRuntimeException e =
        flightError(() -> client.execute("SELECT 1", bearer(ALICE), deadline(value)));
    assertThat(e.status().code()).isEqualTo(FlightStatusCode.INVALID_ARGUMENT);
    assertThat(e.getMessage()).contains(RequestHeaders.TIMEOUT_HEADER);
  }

  @Test
  void parse_acceptsShorterAndLongerDeadlinesUpToTheMaximum() {
    Optional<Duration> max = Optional.of(Duration.ofMinutes(1));
    assertThat(RequestHeaders.parseDeadline(Optional.empty(), max)).isEmpty();
    assertThat(RequestHeaders.parseDeadline(Optional.of("250"), max))
        .contains(Duration.ofMillis(250));
    assertThat(RequestHeaders.parseDeadline(Optional.of(" 60000 "), max))
        .contains(Duration.ofMinutes(1));
    assertThat(RequestHeaders.parseDeadline(Optional.of("7200000"), Optional.empty()))
        .contains(Duration.ofHours(2));
    assertThatThrownBy(() -> RequestHeaders.parseDeadline(Optional.of("60001"), max))
        .isInstanceOfSatisfying(
            LakeException.class, e -> assertThat(e.code()).isEqualTo(ErrorCode.INVALID_ARGUMENT));
    assertThatThrownBy(() -> RequestHeaders.parseDeadline(Optional.of("x".repeat(10_000)), max))
        .hasMessageEndingWith("…'")
        .satisfies(e -> assertThat(e.getMessage().length()).isLessThan(120));
  }
}
