package dev.lake.app;

import static dev.lake.frontdoor.TestLake.bearer;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.lake.core.TableRef;
import dev.lake.frontdoor.CountFormat;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.arrow.flight.FlightClient;
import org.apache.arrow.flight.FlightRuntimeException;
import org.apache.arrow.flight.FlightStatusCode;
import org.apache.arrow.flight.FlightStream;
import org.apache.arrow.flight.Location;
import org.apache.arrow.flight.Ticket;
import org.apache.arrow.flight.sql.FlightSqlClient;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/**
 * A second registry-backed format served under catalog {@code lake} beside Lance: the test-only
 * {@link CountFormat}, installed by its one line of registration, in a real local-mode process
 * (LakeRuntime, DuckDB engine, Flight SQL) built by {@code lake local}'s own command line, which
 * takes the format's flag {@code --count-offset} ({@code LAKE_COUNT_OFFSET}), queried by the Flight
 * SQL and JDBC clients.
 */
class RegisteredFormatEndToEndTest {
  static final String TOKEN = "format-token";
  static final TableRef COUNTS = TableRef.parse("lake.tpch.counts");

  @TempDir static Path dir;
  static LocalLake lake;
  static BufferAllocator allocator;
  static FlightSqlClient client;

  /** {@code lake local}'s command with the count format's variable set (count tables from 10). */
  static LocalCommand local(Map<String, String> env, String... args) {
    CommandLine cli = LakeCli.commandLine(env);
    List<String> all = new ArrayList<>(List.of("local"));
    all.addAll(List.of(args));
    cli.parseArgs(all.toArray(String[]::new));
    return (LocalCommand) cli.getSubcommands().get("local").getCommand();
  }

  /** The count format's location: under local mode's data directory, like every registration. */
  static String COUNTS_AT;

  @BeforeAll
  static void start() {
    COUNTS_AT = dir.resolve("lake").resolve("counts").toAbsolutePath().toString();
    LocalLake.Options options =
        local(
                Map.of("LAKE_COUNT_OFFSET", "10"),
                "--port=0",
                "--scale=0.001",
                "--token=" + TOKEN,
                "--data-dir=" + dir.resolve("lake"))
            .options();
    lake = LocalLake.start(options, new PrintWriter(new StringWriter()));
    allocator = new RootAllocator();
    client =
        new FlightSqlClient(
            FlightClient.builder(allocator, Location.forGrpcInsecure("127.0.0.1", lake.port()))
                .build());
  }

  @AfterAll
  static void stop() throws Exception {
    client.close();
    allocator.close();
    lake.close();
  }

  static Ticket ticket(String sql) {
    return client.execute(sql, bearer(TOKEN)).getEndpoints().get(0).getTicket();
  }

  /** Every value of the result's first row. */
  static List<Long> firstRow(Ticket ticket) throws Exception {
    try (FlightStream stream = client.getStream(ticket, bearer(TOKEN))) {
      assertThat(stream.next()).isTrue();
      List<Long> row = new ArrayList<>();
      for (int i = 0; i < stream.getRoot().getFieldVectors().size(); i++) {
        row.add(((Number) stream.getRoot().getVector(i).getObject(0)).longValue());
      }
      return row;
    }
  }

  static FlightStatusCode failure(Ticket ticket) {
    try {
      firstRow(ticket);
    } catch (FlightRuntimeException e) {
      return e.status().code();
    } catch (Exception e) {
      throw new AssertionError(e);
    }
    throw new AssertionError("DoGet succeeded");
  }

  @Test
  void aSecondRegisteredFormat_isServedUnderLake_besideLance_andFailsClosedWhenReRegistered()
      throws Exception {
    // GIVEN a table of the count format registered in lake's registry beside the Lance demo
    lake.registry().register(COUNTS, CountFormat.TAG, COUNTS_AT, Map.of("rows", "7"));

    // WHEN it is queried alone and joined with a Lance table through Flight SQL
    // THEN its format's resolver and reader serve it, from the offset its own variable set:
    // n = 10..16
    assertThat(firstRow(ticket("SELECT count(*), sum(n) FROM lake.tpch.counts")))
        .containsExactly(7L, 91L);
    assertThat(
            firstRow(
                ticket(
                    "SELECT count(*) FROM lake.tpch.nation JOIN lake.tpch.counts"
                        + " ON n_nationkey = n")))
        .containsExactly(7L);
    // AND metadata lists it in catalog lake
    try (Connection c = DriverManager.getConnection(lake.jdbcUrl());
        ResultSet rs = c.getMetaData().getTables("lake", "tpch", "counts", null)) {
      assertThat(rs.next()).isTrue();
      assertThat(rs.getString("TABLE_NAME")).isEqualTo("counts");
    }

    // WHEN a ticket is sealed and the name is then registered as a format no catalog serves
    // (core's test format: installed, without registered tables)
    Ticket sealed = ticket("SELECT sum(n) FROM lake.tpch.counts");
    lake.registry().unregister(COUNTS);
    lake.registry().register(COUNTS, "test", COUNTS_AT, Map.of());
    // THEN the old ticket fails closed (SNAPSHOT_GONE)
    assertThat(failure(sealed)).isEqualTo(FlightStatusCode.NOT_FOUND);
    // AND a new statement is refused, naming the format (UNSUPPORTED)
    assertThatThrownBy(() -> ticket("SELECT sum(n) FROM lake.tpch.counts"))
        .isInstanceOfSatisfying(
            FlightRuntimeException.class,
            e -> assertThat(e.status().code()).isEqualTo(FlightStatusCode.UNIMPLEMENTED))
        .hasMessageContaining("is registered as format 'test', which this server does not read");

    // WHEN the name is registered as the count format again
    lake.registry().unregister(COUNTS);
    lake.registry().register(COUNTS, CountFormat.TAG, COUNTS_AT, Map.of("rows", "3"));
    // THEN a fresh query reads the new table, and Lance tables still work
    assertThat(firstRow(ticket("SELECT sum(n) FROM lake.tpch.counts"))).containsExactly(33L);
    assertThat(firstRow(ticket("SELECT count(*) FROM lake.tpch.nation"))).containsExactly(25L);
  }

  @Test
  void aFormatsOwnFlag_isTakenByEveryProcessCommand_andValidatedBeforeAnythingStarts(
      @TempDir Path data) {
    // GIVEN lake's command lines, which name no format
    CommandLine root = LakeCli.commandLine(Map.of());
    // THEN serve, local and worker all take the count format's flag, and help lists it
    assertThat(root.getSubcommands().get("serve").getCommandSpec().findOption("--count-offset"))
        .isNotNull();
    assertThat(WorkerMain.commandLine(Map.of()).getCommandSpec().findOption("--count-offset"))
        .isNotNull();
    assertThat(root.getSubcommands().get("local").getUsageMessage()).contains("--count-offset");
    // AND the flag wins over its variable and reaches the format's settings
    assertThat(
            local(Map.of("LAKE_COUNT_OFFSET", "10"), "--count-offset", "3")
                .options()
                .formatSettings())
        .contains(new CountFormat.CountSettings(3));
    // WHEN the value is out of bounds
    StringWriter err = new StringWriter();
    CommandLine bad = LakeCli.commandLine(Map.of("LAKE_COUNT_OFFSET", "-1"));
    bad.setErr(new PrintWriter(err));
    // THEN local refuses it in one line naming the value, with exit code 2, before any data exists
    assertThat(bad.execute("local", "--port", "0", "--data-dir", data.toString())).isEqualTo(2);
    assertThat(err.toString().trim()).isEqualTo("lake: offset must be between 0 and 1000000: -1");
    assertThat(data.resolve("tables")).doesNotExist();
  }
}
