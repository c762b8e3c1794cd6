package dev.lake.frontdoor;

import static dev.lake.frontdoor.TestLake.ALICE;
import static dev.lake.frontdoor.TestLake.CAROL;
import static dev.lake.frontdoor.TestLake.bearer;
import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import org.apache.arrow.flight.FlightRuntimeException;
import org.apache.arrow.flight.FlightStatusCode;
import org.apache.arrow.flight.FlightStream;
import org.apache.arrow.flight.Ticket;
import org.apache.arrow.flight.sql.FlightSqlClient;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Enforced tenant budgets against a real lake (1 MiB of scanned and 1 MiB of result bytes per
 * hour): a stream that would cross the result budget stops, a tenant whose scans used its budget is
 * refused before its next statement starts, the other tenant keeps running fresh statements, and
 * the next window admits the tenant again.
 */
class TenantBudgetTest {
  @TempDir static Path dir;
  static TestLake lake;
  static FlightSqlClient client;

  @BeforeAll
  static void start() {
    lake =
        TestLake.start(
            dir,
            c -> c.withBudgets(BudgetConfig.ofMebibytes(Duration.ofHours(1), 1, 1, 0)),
            e -> e);
    client = lake.client();
  }

  @AfterAll
  static void stop() throws Exception {
    client.close();
    lake.close();
  }

  @Test
  void streamCrossingTheResultBudget_stops_andAnotherTenantContinues() throws Exception {
    // GIVEN globex streams all of lineitem (several MiB of Arrow)
    String sql = "SELECT * FROM lake.tpch.lineitem";
    Ticket ticket = client.execute(sql, bearer(CAROL)).getEndpoints().get(0).getTicket();
    long rows = 0;
    FlightRuntimeException stopped = null;
    // WHEN it reads on THEN the stream ends RESOURCE_EXHAUSTED before the batch that would cross
    try (FlightStream stream = client.getStream(ticket, bearer(CAROL))) {
      while (stream.next()) {
        rows += stream.getRoot().getRowCount();
      }
    } catch (FlightRuntimeException e) {
      stopped = e;
    }
    assertThat(stopped).as("the stream was stopped").isNotNull();
    assertThat(stopped.status().code()).isEqualTo(FlightStatusCode.RESOURCE_EXHAUSTED);
    assertThat(stopped.status().description())
        .startsWith(
            "Tenant globex is over its result-bytes budget (the next batch would bring it to ")
        .contains(" of 1.0 MiB per PT1H, --budget-result-mb); it resets at " + nextHour());
    assertThat(rows).isLessThan(60_175);
    // AND acme's never-seen statement runs in full
    HostileInputTest.assertFreshQuery(client, ALICE);
    lake.clock.advance(Duration.ofHours(1)); // the next test starts in a fresh window
  }

  @Test
  void tenantOverItsScannedBudget_isRefusedBeforeStarting_whileOthersRun() throws Exception {
    // GIVEN acme's aggregate reads more than 1 MiB of lineitem (its result is tiny)
    String scan =
        "SELECT l_returnflag, sum(l_extendedprice), sum(l_quantity), sum(l_discount), count(*)"
            + " FROM lake.tpch.lineitem GROUP BY l_returnflag";
    drain(scan, ALICE);
    // WHEN acme sends another statement THEN it is refused before it starts (the scan is charged
    // when its accounting lands, so this waits a moment for it)
    FlightRuntimeException refused = null;
    long deadline = System.nanoTime() + Duration.ofSeconds(10).toNanos();
    while (refused == null && System.nanoTime() < deadline) {
      try {
        client.execute("SELECT 1 AS one FROM lake.tpch.region LIMIT 1", bearer(ALICE));
        Thread.sleep(50);
      } catch (FlightRuntimeException e) {
        refused = e;
      }
    }
    assertThat(refused).as("acme was refused").isNotNull();
    assertThat(refused.status().code()).isEqualTo(FlightStatusCode.RESOURCE_EXHAUSTED);
    assertThat(refused.status().description())
        .startsWith("Tenant acme is over its scanned-bytes budget (used ")
        .contains(" of 1.0 MiB per PT1H, --budget-scanned-mb); it resets at " + nextHour());
    // AND globex keeps running never-seen statements
    HostileInputTest.assertFreshQuery(client, CAROL);
    // AND in the next window acme runs again
    lake.clock.advance(Duration.ofHours(1));
    HostileInputTest.assertFreshQuery(client, ALICE);
  }

  private static Instant nextHour() {
    long hour = Duration.ofHours(1).toMillis();
    return Instant.ofEpochMilli((Math.floorDiv(lake.clock.millis(), hour) + 1) * hour);
  }

  private static void drain(String sql, String token) throws Exception {
    Ticket ticket = client.execute(sql, bearer(token)).getEndpoints().get(0).getTicket();
    try (FlightStream stream = client.getStream(ticket, bearer(token))) {
      while (stream.next()) {
        // read to the end
      }
    }
  }
}
