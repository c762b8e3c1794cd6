package dev.lake.frontdoor;

import static dev.lake.frontdoor.TestLake.ALICE;
import static dev.lake.frontdoor.TestLake.BOB;
import static dev.lake.frontdoor.TestLake.CAROL;
import static dev.lake.frontdoor.TestLake.DAVE;
import static dev.lake.frontdoor.TestLake.bearer;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.google.protobuf.Any;
import com.google.protobuf.ByteString;
import dev.lake.core.TableRef;
import dev.lake.core.ticket.TicketConfig;
import dev.lake.lance.LanceDatasets;
import dev.lake.lance.LanceFormat;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.function.UnaryOperator;
import org.apache.arrow.flight.FlightInfo;
import org.apache.arrow.flight.FlightRuntimeException;
import org.apache.arrow.flight.FlightStatusCode;
import org.apache.arrow.flight.FlightStream;
import org.apache.arrow.flight.Ticket;
import org.apache.arrow.flight.sql.FlightSqlClient;
import org.apache.arrow.flight.sql.impl.FlightSql.TicketStatementQuery;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Tickets, snapshot pinning, admission and auth at the Flight SQL level with a raw client. */
class FlightSqlEndToEndTest {
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

  static long count(Ticket ticket, String token) throws Exception {
    long rows = 0;
    try (FlightStream stream = client.getStream(ticket, bearer(token))) {
      while (stream.next()) {
        rows += stream.getRoot().getRowCount();
      }
    }
    return rows;
  }

  /** The single value of a one-row, one-column BIGINT result. */
  static long scalar(Ticket ticket, String token) throws Exception {
    try (FlightStream stream = client.getStream(ticket, bearer(token))) {
      assertThat(stream.next()).isTrue();
      return ((Number) stream.getRoot().getVector(0).getObject(0)).longValue();
    }
  }

  static Ticket ticket(String sql, String token) {
    FlightInfo info = client.execute(sql, bearer(token));
    assertThat(info.getEndpoints()).hasSize(1);
    assertThat(info.getEndpoints().get(0).getExpirationTime()).isPresent();
    return info.getEndpoints().get(0).getTicket();
  }

  static Ticket mapHandle(Ticket ticket, UnaryOperator<byte[]> change) throws Exception {
    TicketStatementQuery q = Any.parseFrom(ticket.getBytes()).unpack(TicketStatementQuery.class);
    byte[] handle = change.apply(q.getStatementHandle().toByteArray());
    return new Ticket(
        Any.pack(q.toBuilder().setStatementHandle(ByteString.copyFrom(handle)).build())
            .toByteArray());
  }

  static FlightStatusCode failure(Ticket ticket, String token) {
    try {
      count(ticket, token);
    } catch (FlightRuntimeException e) {
      return e.status().code();
    } catch (Exception e) {
      throw new AssertionError(e);
    }
    throw new AssertionError("DoGet succeeded");
  }

  static String register(String name, String location) {
    LanceFormat.register(lake.registry, TableRef.parse(name), location);
    return name;
  }

  @Test
  void doGet_readsPinnedSnapshot_afterAppend() throws Exception {
    // GIVEN a table and a ticket sealed at its current version
    String location = lake.copyOfNation();
    String table = register("lake.pin.appended", location);
    Ticket ticket = ticket("SELECT count(*) FROM " + table, ALICE);
    // WHEN rows are appended before the DoGet
    lake.appendNation(location);
    // THEN the ticket still reads the old rows, while a new statement sees the new ones
    assertThat(scalar(ticket, ALICE)).isEqualTo(25);
    assertThat(scalar(ticket("SELECT count(*) FROM " + table, ALICE), ALICE)).isEqualTo(50);
  }

  @Test
  void doGet_failsClosed_whenPinnedVersionIsRemoved() throws Exception {
    String location = lake.copyOfNation();
    String table = register("lake.pin.pruned", location);
    Ticket ticket = ticket("SELECT * FROM " + table, ALICE);
    long sealedVersion = LanceDatasets.latestVersion(location, lake.allocator);
    lake.appendNation(location);
    // WHEN the sealed version is removed
    LanceDatasets.removeVersion(location, sealedVersion);
    // THEN DoGet fails closed instead of reading the latest version
    assertThatThrownBy(() -> count(ticket, ALICE))
        .isInstanceOf(FlightRuntimeException.class)
        .satisfies(
            e ->
                assertThat(((FlightRuntimeException) e).status().code())
                    .isEqualTo(FlightStatusCode.NOT_FOUND));
    assertThat(scalar(ticket("SELECT count(*) FROM " + table, ALICE), ALICE)).isEqualTo(50);
  }

  @Test
  void doGet_failsClosed_afterUnregisterAndRegister() throws Exception {
    String location = lake.copyOfNation();
    String table = register("lake.pin.replaced", location);
    Ticket ticket = ticket("SELECT * FROM " + table, ALICE);
    int before = lake.engine.executions.get();
    // WHEN the name is unregistered and registered again (a new incarnation)
    lake.registry.unregister(TableRef.parse(table));
    register(table, location);
    // THEN the old ticket fails closed and executes nothing
    assertThat(failure(ticket, ALICE)).isEqualTo(FlightStatusCode.NOT_FOUND);
    assertThat(lake.engine.executions.get()).isEqualTo(before);
  }

  @Test
  void aNameRegisteredAsAFormatThisServerDoesNotRead_failsClosed_andTheNextQueryWorks()
      throws Exception {
    // GIVEN a ticket sealed for a Lance table whose name is then registered as another format
    // (core's test format: installed, but no catalog of this server reads it)
    String location = lake.copyOfNation();
    String table = register("lake.pin.reformatted", location);
    Ticket ticket = ticket("SELECT * FROM " + table, ALICE);
    lake.registry.unregister(TableRef.parse(table));
    lake.registry.register(TableRef.parse(table), "test", location, Map.of());
    int before = lake.engine.executions.get();
    // WHEN the old ticket is used THEN it fails closed and executes nothing
    assertThat(failure(ticket, ALICE)).isEqualTo(FlightStatusCode.NOT_FOUND);
    assertThat(lake.engine.executions.get()).isEqualTo(before);
    // AND a new statement over the name is refused, naming the format
    assertThatThrownBy(() -> ticket("SELECT * FROM " + table, ALICE))
        .isInstanceOfSatisfying(
            FlightRuntimeException.class,
            e -> assertThat(e.status().code()).isEqualTo(FlightStatusCode.UNIMPLEMENTED))
        .hasMessageContaining("is registered as format 'test', which this server does not read");
    // AND the next query still works
    assertThat(scalar(ticket("SELECT count(*) FROM lake.tpch.nation", ALICE), ALICE)).isEqualTo(25);
  }

  @Test
  void doGet_rejectsBadTickets_andExecutesNothing() throws Exception {
    Ticket good = ticket("SELECT * FROM lake.tpch.nation", ALICE);
    int before = lake.engine.executions.get();
    // tampered: one byte of the ciphertext flipped
    Ticket tampered =
        mapHandle(
            good,
            h -> {
              h[h.length - 20] ^= 1;
              return h;
            });
    assertThat(failure(tampered, ALICE)).isEqualTo(FlightStatusCode.UNAUTHENTICATED);
    // wrong envelope version
    Ticket version =
        mapHandle(
            good,
            h -> {
              h[2] = 9;
              return h;
            });
    assertThat(failure(version, ALICE)).isEqualTo(FlightStatusCode.UNAUTHENTICATED);
    // garbage instead of a Flight SQL ticket
    assertThat(failure(new Ticket(new byte[] {1, 2, 3}), ALICE))
        .isEqualTo(FlightStatusCode.UNAUTHENTICATED);
    // another principal of the same tenant, and the same principal id in another tenant
    assertThat(failure(good, BOB)).isEqualTo(FlightStatusCode.UNAUTHORIZED);
    assertThat(failure(good, CAROL)).isEqualTo(FlightStatusCode.UNAUTHORIZED);
    assertThat(lake.engine.executions.get()).isEqualTo(before);
    // AND the genuine ticket still works for its owner
    assertThat(count(good, ALICE)).isEqualTo(25);
  }

  @Test
  void doGet_rejectsExpiredTicket() throws Exception {
    Ticket ticket = ticket("SELECT * FROM lake.tpch.region", ALICE);
    TicketConfig tickets = TicketConfig.defaults();
    lake.clock.advance(tickets.statementTtl().plus(tickets.clockSkew()).plusSeconds(1));
    // the clock only moves forward: later tickets are sealed and opened at the new time
    assertThatThrownBy(() -> count(ticket, ALICE))
        .isInstanceOf(FlightRuntimeException.class)
        .hasMessageContaining("Ticket expired; run the statement again for a new ticket");
  }

  @Test
  void hostileSql_isRejected_andNextQueryStillWorks() throws Exception {
    List<String> hostile =
        List.of(
            "DROP TABLE lake.tpch.nation",
            "INSERT INTO lake.tpch.nation VALUES (99, 'X', 0, 'x')",
            "COPY (SELECT 1) TO '/tmp/lake-out.csv'",
            "ATTACH '/tmp/x.duckdb' AS x",
            "SELECT * FROM read_csv('/etc/passwd')",
            "SELECT * FROM '/etc/passwd'",
            "SELECT getenv('HOME')",
            "INSTALL httpfs",
            "PRAGMA version",
            "SET threads = 64",
            "SELECT 1; DROP TABLE lake.tpch.nation",
            "SELECT * FROM nation",
            "this is not sql");
    int before = lake.engine.executions.get();
    for (String sql : hostile) {
      assertThatThrownBy(() -> client.execute(sql, bearer(ALICE)))
          .as(sql)
          .isInstanceOf(FlightRuntimeException.class)
          .satisfies(
              e ->
                  assertThat(((FlightRuntimeException) e).status().code())
                      .as(sql)
                      .isEqualTo(FlightStatusCode.INVALID_ARGUMENT));
    }
    assertThat(lake.engine.executions.get()).isEqualTo(before);
    assertThat(scalar(ticket("SELECT count(*) FROM lake.tpch.region", ALICE), ALICE)).isEqualTo(5);
  }

  @Test
  void deniedTable_isIndistinguishableFromMissingTable() throws Exception {
    // GIVEN dave may read only lake.tpch.nation; alice may read lake.pin.*
    String sql = "SELECT * FROM lake.pin.secret";
    // WHEN alice asks before the table exists, and dave asks after it exists
    FlightRuntimeException missing = catchFlight(() -> client.execute(sql, bearer(ALICE)));
    register("lake.pin.secret", lake.copyOfNation());
    FlightRuntimeException denied = catchFlight(() -> client.execute(sql, bearer(DAVE)));
    // THEN both get the same status and the same message
    assertThat(denied.status().code()).isEqualTo(FlightStatusCode.NOT_FOUND);
    assertThat(denied.status().code()).isEqualTo(missing.status().code());
    assertThat(denied.status().description())
        .isEqualTo(missing.status().description())
        .isEqualTo("Table lake.pin.secret does not exist");
  }

  @Test
  void everyRpc_requiresBearerToken_includingHandshake() {
    assertThat(catchFlight(() -> client.execute("SELECT 1", TestLake.noAuth())).status().code())
        .isEqualTo(FlightStatusCode.UNAUTHENTICATED);
    assertThat(catchFlight(() -> client.getCatalogs(bearer("wrong"))).status().code())
        .isEqualTo(FlightStatusCode.UNAUTHENTICATED);
    try (org.apache.arrow.flight.FlightClient raw =
        org.apache.arrow.flight.FlightClient.builder(
                lake.allocator,
                org.apache.arrow.flight.Location.forGrpcInsecure("127.0.0.1", lake.port()))
            .build()) {
      assertThat(catchFlight(() -> raw.handshake(TestLake.noAuth())).status().code())
          .isEqualTo(FlightStatusCode.UNAUTHENTICATED);
      raw.handshake(bearer(ALICE));
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  @Test
  void writes_areUnimplemented() {
    FlightRuntimeException e =
        catchFlight(() -> client.executeUpdate("DELETE FROM lake.tpch.nation", bearer(ALICE)));
    assertThat(e.status().code()).isEqualTo(FlightStatusCode.UNIMPLEMENTED);
    assertThat(e.status().description())
        .isEqualTo(
            "Updates (CommandStatementUpdate) is not supported: lake is a read-only query service");
  }

  @Test
  void doGet_streamsLargeResult_andSurvivesClientCancel() throws Exception {
    // a full lineitem stream completes (back-pressure never stalls)
    assertThat(count(ticket("SELECT * FROM lake.tpch.lineitem", ALICE), ALICE)).isEqualTo(60_175);
    // a client that cancels after the first batch does not hurt the server
    try (FlightStream stream =
        client.getStream(ticket("SELECT * FROM lake.tpch.lineitem", ALICE), bearer(ALICE))) {
      assertThat(stream.next()).isTrue();
      stream.cancel("enough", null);
    }
    assertThat(scalar(ticket("SELECT count(*) FROM lake.tpch.orders", ALICE), ALICE))
        .isEqualTo(15_000);
  }

  @Test
  void sqlInfo_reportsReadOnlyServer() throws Exception {
    FlightInfo info =
        client.getSqlInfo(
            new org.apache.arrow.flight.sql.impl.FlightSql.SqlInfo[] {
              org.apache.arrow.flight.sql.impl.FlightSql.SqlInfo.FLIGHT_SQL_SERVER_NAME,
              org.apache.arrow.flight.sql.impl.FlightSql.SqlInfo.FLIGHT_SQL_SERVER_READ_ONLY
            },
            bearer(ALICE));
    try (FlightStream stream =
        client.getStream(info.getEndpoints().get(0).getTicket(), bearer(ALICE))) {
      assertThat(stream.next()).isTrue();
      assertThat(stream.getRoot().getRowCount()).isEqualTo(2);
      assertThat(stream.getRoot().contentToTSVString()).contains("lake").contains("true");
    }
  }

  private static FlightRuntimeException catchFlight(Runnable call) {
    try {
      call.run();
    } catch (FlightRuntimeException e) {
      return e;
    }
    throw new AssertionError("call succeeded");
  }
}
