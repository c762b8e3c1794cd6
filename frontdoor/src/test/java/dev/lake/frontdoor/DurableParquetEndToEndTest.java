package dev.lake.frontdoor;

import static dev.lake.frontdoor.DurableFlightCalls.download;
import static dev.lake.frontdoor.DurableFlightCalls.flightError;
import static dev.lake.frontdoor.DurableFlightCalls.header;
import static dev.lake.frontdoor.DurableFlightCalls.pollToEnd;
import static dev.lake.frontdoor.DurableFlightCalls.statement;
import static dev.lake.frontdoor.TestLake.ALICE;
import static dev.lake.frontdoor.TestLake.bearer;
import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.apache.arrow.flight.CallOption;
import org.apache.arrow.flight.FlightClient;
import org.apache.arrow.flight.FlightInfo;
import org.apache.arrow.flight.FlightStatusCode;
import org.apache.arrow.flight.Location;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Durable results stored as Parquet ({@code x-lake-result-format: parquet}) end to end on local
 * adapters: real Flight, the real engine and its DuckDB Parquet codec, the in-process worker, parts
 * of at most 10,000 rows downloaded as Arrow by a Flight client.
 */
class DurableParquetEndToEndTest {
  private static final CallOption PARQUET = header("x-lake-result-format", "parquet");

  @TempDir static Path dir;
  static TestLake lake;
  static FlightClient client;

  @BeforeAll
  static void start() {
    lake = TestLake.startDurable(dir, DurableEndToEndTest.tierConfig());
    client =
        FlightClient.builder(lake.allocator, Location.forGrpcInsecure("127.0.0.1", lake.port()))
            .build();
  }

  @AfterAll
  static void stop() throws Exception {
    client.close();
    lake.close();
  }

  private static FlightInfo run(String sql, CallOption... options) {
    CallOption[] all =
        Stream.concat(Stream.of(bearer(ALICE)), Stream.of(options)).toArray(CallOption[]::new);
    return pollToEnd(client, client.pollInfo(statement(sql), all), ALICE).getFlightInfo();
  }

  @Test
  void parquetResult_downloadsAsArrow_exactlyTheIpcResultsRows() throws Exception {
    // GIVEN lineitem ordered, submitted once for Arrow IPC and once for Parquet
    FlightInfo ipc = run(DurableEndToEndTest.LINEITEM);
    FlightInfo parquet = run(DurableEndToEndTest.LINEITEM, PARQUET);
    // THEN the Parquet result has the same parts, schema and rows, and is smaller at rest
    assertThat(parquet.getEndpoints()).hasSize(7);
    assertThat(parquet.getRecords()).isEqualTo(60_175);
    assertThat(parquet.getSchema()).isEqualTo(ipc.getSchema());
    assertThat(onlyResultWithParts(7).resolve("manifest.json")).exists();
    assertThat(parquet.getBytes()).isLessThan(ipc.getBytes() / 2);
    System.out.printf(
        "lineitem SF0.01 durable result: Arrow IPC %d bytes, Parquet (zstd) %d bytes%n",
        ipc.getBytes(), parquet.getBytes());
    assertThat(download(client, parquet, ALICE)).isEqualTo(download(client, ipc, ALICE));
  }

  @Test
  void unknownResultFormat_isInvalidArgument_namingTheAcceptedValues_andTheNextQueryWorks() {
    // WHEN a client asks for a format lake does not write
    var error =
        flightError(
            () ->
                client.pollInfo(
                    statement("SELECT 1 AS one"),
                    bearer(ALICE),
                    header("x-lake-result-format", "csv")));
    // THEN INVALID_ARGUMENT names the accepted values; the next submission still works
    assertThat(error.status().code()).isEqualTo(FlightStatusCode.INVALID_ARGUMENT);
    assertThat(error.getMessage()).contains("arrow, parquet");
    assertThat(run("SELECT 2 AS two", PARQUET).getRecords()).isEqualTo(1);
  }

  @Test
  void corruptParquetPart_failsTheDownloadCleanly_andAFreshQueryStillSucceeds() throws Exception {
    // GIVEN a finished Parquet result whose first part is then corrupted at its exact size
    FlightInfo info =
        run(
            "SELECT * FROM lake.tpch.orders ORDER BY o_orderkey",
            PARQUET,
            header("x-lake-submission-id", "corrupt-me"));
    // (orders is the only result of this class with exactly two parts: 10,000 + 5,000 rows)
    Path first = onlyResultWithParts(2).resolve("part-00000.parquet");
    Files.write(first, new byte[(int) Files.size(first)]);
    // WHEN it is downloaded THEN a clean error, no rows
    var error =
        flightError(
            () -> DurableFlightCalls.rows(client, info.getEndpoints().get(0).getTicket(), ALICE));
    assertThat(error.status().code()).isEqualTo(FlightStatusCode.INTERNAL);
    // AND user SQL still cannot read Parquet files itself (the codec's door stays shut)
    var hostile =
        flightError(
            () ->
                client.pollInfo(
                    statement("SELECT * FROM read_parquet('" + first + "')"), bearer(ALICE)));
    assertThat(hostile.status().code()).isEqualTo(FlightStatusCode.INVALID_ARGUMENT);
    // AND the other parts and a fresh query still work
    assertThat(DurableFlightCalls.rows(client, info.getEndpoints().get(1).getTicket(), ALICE))
        .hasSize(5_000);
    assertThat(run("SELECT * FROM lake.tpch.nation", PARQUET).getRecords()).isEqualTo(25);
  }

  /** The one result directory holding exactly {@code count} Parquet parts. */
  private static Path onlyResultWithParts(long count) throws Exception {
    try (Stream<Path> dirs = Files.list(dir.resolve("results").resolve("acme"))) {
      List<Path> matching = new java.util.ArrayList<>();
      for (Path d : dirs.toList()) {
        try (Stream<Path> files = Files.list(d)) {
          if (files.filter(p -> p.toString().endsWith(".parquet")).count() == count) {
            matching.add(d);
          }
        }
      }
      assertThat(matching).hasSize(1);
      return matching.get(0);
    }
  }
}
