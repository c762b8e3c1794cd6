package dev.lake.frontdoor;

import static dev.lake.frontdoor.TestLake.ALICE;
import static dev.lake.frontdoor.TestLake.BOB;
import static dev.lake.frontdoor.TestLake.CAROL;
import static dev.lake.frontdoor.TestLake.DAVE;
import static dev.lake.frontdoor.TestLake.bearer;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import com.google.protobuf.Any;
import com.google.protobuf.ByteString;
import dev.lake.durable.DurableTierConfig;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.arrow.flight.FlightClient;
import org.apache.arrow.flight.FlightDescriptor;
import org.apache.arrow.flight.FlightRuntimeException;
import org.apache.arrow.flight.FlightStatusCode;
import org.apache.arrow.flight.FlightStream;
import org.apache.arrow.flight.Location;
import org.apache.arrow.flight.Ticket;
import org.apache.arrow.flight.sql.FlightSqlClient;
import org.apache.arrow.flight.sql.impl.FlightSql.TicketStatementQuery;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Hostile inputs against a running lake (metadata patterns, garbled and oversized tickets and job
 * descriptors, grant edge cases, call floods). Every case ends with a fresh, never-seen query that
 * must succeed, and no case may take long or leak Arrow memory. Hostile SQL and execution limits
 * live in safety-exec's own suite.
 */
class HostileInputTest {
  /** The longest any single hostile case may take on a loaded 2-core machine. */
  static final Duration CASE_BUDGET = Duration.ofSeconds(20);

  @TempDir static Path dir;
  static TestLake lake;
  static FlightSqlClient client;
  static FlightClient raw;
  static final AtomicInteger fresh = new AtomicInteger();
  static final SecureRandom random = new SecureRandom();
  long started;

  @BeforeAll
  static void start() {
    lake = TestLake.startDurable(dir, DurableTierConfig.defaults().withWorkers(1));
    client = lake.client();
    raw =
        FlightClient.builder(lake.allocator, Location.forGrpcInsecure("127.0.0.1", lake.port()))
            .build();
  }

  @AfterAll
  static void stop() throws Exception {
    raw.close();
    client.close();
    lake.close();
  }

  @AfterEach
  void freshQueryStillWorks() throws Exception {
    // every case: the server is alive and answers a statement it has never seen, in time
    assertFreshQuery(client, ALICE);
    assertThat(Duration.ofNanos(System.nanoTime() - started)).isLessThan(CASE_BUDGET);
  }

  @org.junit.jupiter.api.BeforeEach
  void clock() {
    started = System.nanoTime();
  }

  static void assertFreshQuery(FlightSqlClient on, String token) throws Exception {
    int n = fresh.incrementAndGet();
    String sql = "SELECT count(*) + " + n + " AS c FROM lake.tpch.region WHERE r_regionkey >= 0";
    Ticket ticket = on.execute(sql, bearer(token)).getEndpoints().get(0).getTicket();
    try (FlightStream stream = on.getStream(ticket, bearer(token))) {
      assertThat(stream.next()).isTrue();
      assertThat(((Number) stream.getRoot().getVector(0).getObject(0)).longValue())
          .isEqualTo(5 + n);
    }
  }

  static FlightRuntimeException failure(ThrowingCall call) {
    FlightRuntimeException e = catchThrowableOfType(call::run, FlightRuntimeException.class);
    assertThat(e).as("the call failed with a Flight error").isNotNull();
    assertThat(e.status().code()).as(e.getMessage()).isNotEqualTo(FlightStatusCode.INTERNAL);
    return e;
  }

  interface ThrowingCall {
    void run() throws Exception;
  }

  @Test
  void enumResult_isStreamedAsItsStrings() throws Exception {
    // GIVEN a statement whose result column is an ENUM (DuckDB exports it dictionary-encoded,
    // which a Flight stream started without its dictionaries failed on with INTERNAL)
    String sql =
        "SELECT r_regionkey, CAST(r_name AS ENUM('AFRICA', 'AMERICA', 'ASIA', 'EUROPE',"
            + " 'MIDDLE EAST')) AS region FROM lake.tpch.region ORDER BY r_regionkey";

    // WHEN it is planned and streamed
    var info = client.execute(sql, bearer(ALICE));
    List<String> names = new ArrayList<>();
    try (FlightStream stream =
        client.getStream(info.getEndpoints().get(0).getTicket(), bearer(ALICE))) {
      while (stream.next()) {
        for (int r = 0; r < stream.getRoot().getRowCount(); r++) {
          names.add(String.valueOf(stream.getRoot().getVector("region").getObject(r)));
        }
      }
      // THEN the announced and the streamed column are plain strings with the values
      assertThat(stream.getSchema().findField("region").getDictionary()).isNull();
    }
    assertThat(info.getSchemaOptional().orElseThrow().findField("region").getDictionary()).isNull();
    assertThat(names).containsExactly("AFRICA", "AMERICA", "ASIA", "EUROPE", "MIDDLE EAST");
  }

  static void drain(Ticket ticket) throws Exception {
    try (FlightStream stream = client.getStream(ticket, bearer(ALICE))) {
      while (stream.next()) {
        // read to the end
      }
    }
  }

  static int tableCount(String token, String schemaPattern, String tablePattern) throws Exception {
    int rows = 0;
    try (FlightStream stream =
        client.getStream(
            client
                .getTables(null, schemaPattern, tablePattern, null, false, bearer(token))
                .getEndpoints()
                .get(0)
                .getTicket(),
            bearer(token))) {
      while (stream.next()) {
        rows += stream.getRoot().getRowCount();
      }
    }
    return rows;
  }

  @Test
  void backtrackingMetadataPatterns_answerQuickly() throws Exception {
    // GIVEN patterns that pinned a core for hours through a regex
    String hostile = "%".repeat(1_000) + "x";
    String underscores = "_%".repeat(500) + "!";
    // WHEN listing tables with them
    long start = System.nanoTime();
    assertThat(tableCount(ALICE, hostile, hostile)).isZero();
    assertThat(tableCount(ALICE, null, underscores)).isZero();
    // THEN they answer at once, and a pattern over the bound is a clear INVALID_ARGUMENT
    assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(Duration.ofSeconds(5));
    FlightRuntimeException tooLong = failure(() -> tableCount(ALICE, null, "%".repeat(5_000)));
    assertThat(tooLong.status().code()).isEqualTo(FlightStatusCode.INVALID_ARGUMENT);
    assertThat(tooLong.getMessage()).contains("longer than 1024");
    assertThat(tableCount(ALICE, "tpch", "line%")).isEqualTo(1);
  }

  @Test
  void garbledAndOversizedTickets_areRefused_cleanly() throws Exception {
    Ticket good =
        client.execute("SELECT 1 AS one", bearer(ALICE)).getEndpoints().get(0).getTicket();
    byte[] junk = new byte[4096];
    random.nextBytes(junk);
    List<Ticket> hostile = new ArrayList<>();
    hostile.add(new Ticket(new byte[0]));
    hostile.add(new Ticket(junk));
    hostile.add(new Ticket(new byte[1 << 20]));
    hostile.add(new Ticket("LK".getBytes(StandardCharsets.US_ASCII)));
    hostile.add(new Ticket(("LK" + "A".repeat(10_000)).getBytes(StandardCharsets.US_ASCII)));
    hostile.add(
        new Ticket(
            Any.pack(
                    TicketStatementQuery.newBuilder()
                        .setStatementHandle(ByteString.copyFrom(junk))
                        .build())
                .toByteArray()));
    byte[] truncated = good.getBytes();
    hostile.add(new Ticket(java.util.Arrays.copyOf(truncated, truncated.length / 2)));
    for (Ticket t : hostile) {
      FlightRuntimeException e = failure(() -> drain(t));
      assertThat(e.status().code())
          .isIn(FlightStatusCode.UNAUTHENTICATED, FlightStatusCode.INVALID_ARGUMENT);
    }
    assertThat(lake.allocator.getAllocatedMemory()).isLessThan(64L << 20);
  }

  @Test
  void garbledJobDescriptors_areRefused_cleanly() {
    byte[] junk = new byte[2048];
    random.nextBytes(junk);
    List<FlightDescriptor> hostile =
        List.of(
            FlightDescriptor.command(new byte[0]),
            FlightDescriptor.command(junk),
            FlightDescriptor.command(("LK" + "B".repeat(5_000)).getBytes(StandardCharsets.UTF_8)),
            FlightDescriptor.path("a", "b"),
            FlightDescriptor.command(
                Any.pack(com.google.protobuf.BytesValue.of(ByteString.copyFrom(junk)))
                    .toByteArray()));
    for (FlightDescriptor d : hostile) {
      FlightRuntimeException e = failure(() -> raw.pollInfo(d, bearer(ALICE)));
      assertThat(e.status().code())
          .isIn(
              FlightStatusCode.UNAUTHENTICATED,
              FlightStatusCode.INVALID_ARGUMENT,
              FlightStatusCode.NOT_FOUND);
    }
  }

  @Test
  void grantEdgeCases_revealNothing_andNeverMatchAcrossNamespaces() throws Exception {
    // dave holds lake.tpch.nation only: listings and statements see exactly that table
    assertThat(tableCount(DAVE, null, null)).isEqualTo(1);
    assertThat(tableCount(DAVE, "tpch", "region")).isZero();
    for (String sql :
        List.of(
            "SELECT * FROM lake.tpch.region",
            "SELECT * FROM lake.\"tpch.nation\".nation",
            "SELECT * FROM lake.\"tpch\".\"nation.x\"")) {
      FlightRuntimeException e = failure(() -> client.execute(sql, bearer(DAVE)));
      assertThat(e.status().code())
          .as(sql)
          .isIn(FlightStatusCode.NOT_FOUND, FlightStatusCode.INVALID_ARGUMENT);
    }
    // a ticket of one principal is worthless to another of the same or another tenant
    Ticket alices =
        client
            .execute("SELECT * FROM lake.tpch.nation", bearer(ALICE))
            .getEndpoints()
            .get(0)
            .getTicket();
    for (String other : List.of(BOB, CAROL, DAVE)) {
      FlightRuntimeException e =
          failure(
              () -> {
                try (FlightStream s = client.getStream(alices, bearer(other))) {
                  s.next();
                }
              });
      assertThat(e.status().code()).isEqualTo(FlightStatusCode.UNAUTHORIZED);
    }
  }
}
