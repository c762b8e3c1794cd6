package dev.lake.frontdoor;

import static dev.lake.frontdoor.TestLake.ALICE;
import static dev.lake.frontdoor.TestLake.bearer;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import dev.lake.core.TableRef;
import dev.lake.lance.LanceDatasets;
import dev.lake.lance.LanceFormat;
import java.nio.file.Path;
import org.apache.arrow.flight.FlightRuntimeException;
import org.apache.arrow.flight.FlightStatusCode;
import org.apache.arrow.flight.FlightStream;
import org.apache.arrow.flight.Ticket;
import org.apache.arrow.flight.sql.FlightSqlClient;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A real Flight SQL client tells lake's error codes apart from the error metadata alone. */
class ErrorCodeMetadataEndToEndTest {
  @TempDir static Path dir;
  static TestLake lake;
  static FlightSqlClient client;

  @BeforeAll
  static void start() {
    lake = TestLake.start(dir);
    client = lake.client();
  }

  @AfterAll
  static void stop() throws Exception {
    client.close();
    lake.close();
  }

  static String code(FlightRuntimeException e) {
    return e.status().metadata().get(FlightErrors.ERROR_CODE_KEY);
  }

  static void drain(Ticket ticket) throws Exception {
    try (FlightStream stream = client.getStream(ticket, bearer(ALICE))) {
      while (stream.next()) {
        // read to the end
      }
    }
  }

  @Test
  void client_tellsSnapshotGone_fromTableNotFound_byMetadata() throws Exception {
    // GIVEN a ticket sealed at a version that is then removed, and a table that does not exist
    String location = lake.copyOfNation();
    LanceFormat.register(lake.registry, TableRef.parse("lake.pin.gone"), location);
    Ticket ticket =
        client
            .execute("SELECT * FROM lake.pin.gone", bearer(ALICE))
            .getEndpoints()
            .get(0)
            .getTicket();
    long sealed = LanceDatasets.latestVersion(location, lake.allocator);
    lake.appendNation(location);
    LanceDatasets.removeVersion(location, sealed);
    // WHEN both are used
    FlightRuntimeException gone =
        catchThrowableOfType(() -> drain(ticket), FlightRuntimeException.class);
    FlightRuntimeException missing =
        catchThrowableOfType(
            () -> client.execute("SELECT * FROM lake.pin.nope", bearer(ALICE)),
            FlightRuntimeException.class);
    // THEN both are NOT_FOUND, and the metadata names the lake error code of each
    assertThat(gone.status().code()).isEqualTo(FlightStatusCode.NOT_FOUND);
    assertThat(missing.status().code()).isEqualTo(FlightStatusCode.NOT_FOUND);
    assertThat(code(gone)).isEqualTo("SNAPSHOT_GONE");
    assertThat(code(missing)).isEqualTo("TABLE_NOT_FOUND");
  }

  @Test
  void rejections_carryTheirCode_tellingTicketProblemsFromUnimplementedCalls() {
    FlightRuntimeException badTicket =
        catchThrowableOfType(
            () -> drain(new Ticket(new byte[] {1, 2, 3})), FlightRuntimeException.class);
    FlightRuntimeException notAllowed =
        catchThrowableOfType(
            () -> client.execute("DROP TABLE lake.tpch.nation", bearer(ALICE)),
            FlightRuntimeException.class);
    FlightRuntimeException unimplemented =
        catchThrowableOfType(
            () -> client.executeUpdate("DELETE FROM lake.tpch.nation", bearer(ALICE)),
            FlightRuntimeException.class);
    assertThat(badTicket.status().code()).isEqualTo(FlightStatusCode.UNAUTHENTICATED);
    assertThat(code(badTicket)).isEqualTo("TICKET_INVALID");
    assertThat(code(notAllowed)).isIn("SQL_NOT_ALLOWED", "INVALID_SQL");
    assertThat(code(unimplemented)).isEqualTo("UNSUPPORTED");
  }

  @Test
  void authenticationRejections_haveNoCode_becauseArrowMiddlewareDropsErrorMetadata() {
    // Arrow Java closes a call rejected by server middleware with empty trailers, so a missing
    // or unknown token is the one rejection without x-lake-error-code (documented in security.md)
    FlightRuntimeException unauthenticated =
        catchThrowableOfType(
            () -> client.getCatalogs(bearer("wrong-token")), FlightRuntimeException.class);
    assertThat(unauthenticated.status().code()).isEqualTo(FlightStatusCode.UNAUTHENTICATED);
    assertThat(unauthenticated.status().metadata().containsKey(FlightErrors.ERROR_CODE_KEY))
        .isFalse();
  }
}
