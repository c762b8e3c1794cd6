package dev.lake.client.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import dev.lake.app.ClientTestLake;
import dev.lake.client.LakeClient;
import dev.lake.client.LakeClientConfig;
import dev.lake.client.LakeClientException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import org.apache.arrow.flight.FlightStatusCode;
import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.ipc.ArrowReader;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import picocli.CommandLine;

/**
 * {@code lake sql} as a user runs it (a separate process: stdout, stderr, exit code) against the
 * lake {@code bin/lake local} runs, with the token taken from its data directory as a bare {@code
 * bin/lake sql} does; and the client's deadline through the same server, from the SDK ({@link
 * LakeClientConfig#withTimeout}) and from {@code lake sql --timeout}.
 */
class SqlCommandEndToEndTest {
  private static final String LINEITEM = "SELECT * FROM lake.tpch.lineitem";

  /** Runs for days unless something stops it. */
  private static final String ENDLESS = "SELECT count(*) AS n FROM range(1000000000000000)";

  @TempDir static Path dir;
  static ClientTestLake lake;
  static LakeClient client;

  @BeforeAll
  static void start() {
    lake = ClientTestLake.start(dir.resolve("lake"), 1_000_000);
    client = LakeClient.connect(LakeClientConfig.of(lake.url(), lake.token()));
  }

  @AfterAll
  static void stop() {
    client.close();
    lake.close();
  }

  /** The environment of a user who ran {@code bin/lake local} with this data directory. */
  private static Map<String, String> localUser() {
    return Map.of("LAKE_URL", lake.url(), "LAKE_DATA_DIR", lake.dataDir().toString());
  }

  @Test
  void sql_withoutToken_usesTheLocalDemoTokenAndPrintsOnlyTheResult() {
    // WHEN a bare statement runs with stdout piped
    Cli.Result r = Cli.run(dir, localUser(), "sql", "-e", "SELECT 1 AS one, 'a,b' AS t");

    // THEN it prints CSV and nothing else: no log lines on either stream
    assertThat(r.exit()).isZero();
    assertThat(r.stdout()).isEqualTo("one,t\n1,\"a,b\"\n");
    assertThat(r.stderr()).isEmpty();
  }

  @ParameterizedTest
  @ValueSource(strings = {"parquet", "arrow", "csv", "json"})
  void output_roundTripsLineitemExactly(String format) throws Exception {
    // GIVEN the TPC-H lineitem table written by the command line in one format
    Path file = dir.resolve("lineitem." + format);
    Cli.Result r = Cli.run(dir, localUser(), "sql", "-e", LINEITEM, "--output", file.toString());
    assertThat(r.stderr()).isEmpty();
    assertThat(r.exit()).isZero();

    // WHEN the file is read back
    try (ResultCheck check = new ResultCheck(client, LINEITEM)) {
      String relation =
          switch (format) {
            case "parquet" -> check.parquet(file);
            case "arrow" -> check.arrowFile(file);
            case "csv" -> check.typed("read_csv", file);
            default -> check.typed("read_json", file);
          };

      // THEN it holds exactly lake's rows; binary formats keep the column types
      assertThat(check.rows()).isEqualTo(60_175);
      check.assertSameRows(relation);
      if (format.equals("parquet") || format.equals("arrow")) {
        assertThat(check.types(relation)).isEqualTo(check.types("ref"));
        assertThat(check.types(relation))
            .contains("l_extendedprice DECIMAL(15,2)", "l_shipdate DATE");
      }
    }
    // and no temporary file is left next to it
    try (var files = Files.list(dir)) {
      assertThat(files.map(p -> p.getFileName().toString())).noneMatch(n -> n.endsWith(".tmp"));
    }
  }

  @Test
  void tableFormat_alignsColumnsAndCountsRows() {
    Cli.Result r =
        Cli.run(
            dir,
            localUser(),
            "sql",
            "--format",
            "table",
            "-e",
            "SELECT n_nationkey, n_name FROM lake.tpch.nation WHERE n_nationkey < 3 ORDER BY 1");

    assertThat(r.exit()).isZero();
    assertThat(r.stdout())
        .isEqualTo(
            "n_nationkey | n_name\n"
                + "------------+----------\n"
                + "          0 | ALGERIA\n"
                + "          1 | ARGENTINA\n"
                + "          2 | BRAZIL\n"
                + "(3 rows)\n");
  }

  @Test
  void file_runsEveryStatementInOrder() throws Exception {
    Path script = dir.resolve("script.sql");
    Files.writeString(
        script,
        "-- two statements\nSELECT 'x;y' AS s;\nSELECT count(*) AS n\n  FROM lake.tpch.region;\n");

    Cli.Result r = Cli.run(dir, localUser(), "sql", "-f", script.toString());

    assertThat(r.exit()).isZero();
    assertThat(r.stdout()).isEqualTo("s\nx;y\nn\n5\n");
  }

  @Test
  void explain_printsThePlanWithoutRunning() {
    Cli.Result r =
        Cli.run(
            dir, localUser(), "sql", "--explain", "-e", "SELECT count(*) FROM lake.tpch.orders");

    assertThat(r.exit()).isZero();
    assertThat(r.stdout()).containsIgnoringCase("aggregate");
  }

  @Test
  void badSql_isOneLineWithTheStatusAndExit1_thenTheNextQueryWorks() {
    Cli.Result r = Cli.run(dir, localUser(), "sql", "-e", "SELEC 1");

    assertThat(r.exit()).isEqualTo(1);
    assertThat(r.errLines()).hasSize(1);
    assertThat(r.stderr()).startsWith("lake: INVALID_ARGUMENT").contains("SELEC");
    assertThat(Cli.run(dir, localUser(), "sql", "-e", "SELECT 2 AS two").stdout())
        .isEqualTo("two\n2\n");
  }

  @Test
  void wrongToken_isOneLineUnauthenticatedAndExit1() {
    Cli.Result r = Cli.run(dir, localUser(), "sql", "--token", "not-the-token", "-e", "SELECT 1");

    assertThat(r.exit()).isEqualTo(1);
    assertThat(r.errLines()).hasSize(1);
    assertThat(r.stderr()).startsWith("lake: UNAUTHENTICATED");
  }

  @Test
  void usageErrors_exit2WithAHint() {
    Cli.Result unknownFlag = Cli.run(dir, localUser(), "sql", "--no-such-flag");
    Cli.Result noSql = Cli.run(dir, localUser(), "sql");
    Cli.Result parquetToStdout =
        Cli.run(dir, localUser(), "sql", "--format", "parquet", "-e", "SELECT 1");

    assertThat(unknownFlag.exit()).isEqualTo(2);
    assertThat(unknownFlag.stderr()).startsWith("lake: Unknown option: '--no-such-flag'");
    assertThat(noSql.exit()).isEqualTo(2);
    assertThat(noSql.stderr()).isEqualTo("lake: no SQL statement given (use -e SQL or -f FILE)\n");
    assertThat(parquetToStdout.exit()).isEqualTo(2);
    assertThat(parquetToStdout.stderr()).contains("needs --output FILE");
  }

  // ---- the client's deadline (x-lake-timeout-ms): SDK withTimeout and lake sql --timeout ----

  private static LakeClientConfig config() {
    return LakeClientConfig.of(lake.url(), lake.token());
  }

  @Test
  void query_endsTimedOut_whenTheClientsDeadlinePasses_andAFreshQueryStillRuns() throws Exception {
    // GIVEN a client whose queries may run 300 ms (the server's own default is minutes)
    try (LakeClient client = LakeClient.connect(config().withTimeout(Duration.ofMillis(300)))) {
      // WHEN it runs a statement that would run for days
      long started = System.nanoTime();
      LakeClientException e =
          catchThrowableOfType(
              LakeClientException.class,
              () -> {
                try (ArrowReader reader = client.query(ENDLESS)) {
                  reader.loadNextBatch();
                }
              });
      Duration took = Duration.ofNanos(System.nanoTime() - started);

      // THEN the server ended it at the client's deadline with TIMED_OUT and lake's code
      assertThat(e).isNotNull();
      assertThat(e.status()).as(e.describe()).isEqualTo(FlightStatusCode.TIMED_OUT);
      assertThat(e.errorCode()).contains("DEADLINE_EXCEEDED");
      assertThat(took).isLessThan(Duration.ofSeconds(30));
    }
    // AND a fresh query with a deadline of a minute completes (the server is still serving)
    try (LakeClient client = LakeClient.connect(config().withTimeout(Duration.ofMinutes(1)));
        ArrowReader reader = client.query("SELECT 41 + 1 AS answer")) {
      assertThat(reader.loadNextBatch()).isTrue();
      assertThat(reader.getVectorSchemaRoot().getVector("answer").getObject(0)).isEqualTo(42);
    }
  }

  @Test
  void query_withADeadlineOverTheServersLongest_isRefusedBeforeAnythingRuns() throws Exception {
    // GIVEN a client asking for 2 h, longer than the server's longest interactive deadline (1 h)
    try (LakeClient client = LakeClient.connect(config().withTimeout(Duration.ofHours(2)))) {
      // WHEN it runs a statement
      LakeClientException e =
          catchThrowableOfType(LakeClientException.class, () -> client.query(ENDLESS).close());

      // THEN the server refuses it at planning, naming its bound and the durable tier
      assertThat(e).isNotNull();
      assertThat(e.status()).isEqualTo(FlightStatusCode.INVALID_ARGUMENT);
      assertThat(e.getMessage()).contains("x-lake-timeout-ms", "--max-query-timeout", "durable");
    }
    // AND a client without a deadline gets the server's default and its answer
    try (LakeClient client = LakeClient.connect(config());
        ArrowReader reader = client.query("SELECT count(*) AS n FROM lake.tpch.nation")) {
      assertThat(reader.loadNextBatch()).isTrue();
      assertThat(((BigIntVector) reader.getVectorSchemaRoot().getVector("n")).get(0)).isEqualTo(25);
    }
  }

  @Test
  void sqlCommand_sendsTheTimeoutOfLakeTimeout_andExitsWithTheStatus() {
    // WHEN a user runs a statement that would last for days with LAKE_TIMEOUT=300ms
    Cli.Result r =
        Cli.run(
            dir,
            Map.of(
                "LAKE_URL", lake.url(),
                "LAKE_DATA_DIR", lake.dataDir().toString(),
                "LAKE_TIMEOUT", "300ms"),
            "sql",
            "-e",
            ENDLESS);

    // THEN the command fails with the server's TIMED_OUT in one line
    assertThat(r.exit()).as(r.stderr()).isEqualTo(1);
    assertThat(r.stderr()).startsWith("lake: TIMED_OUT").doesNotContain("\tat ");
    assertThat(r.stdout()).isEmpty();
  }

  @Test
  void sqlCommand_refusesABadTimeout_andATimeoutOnADurableQuery_asUsageErrors() {
    // WHEN --timeout is not a duration, is zero, or is given to a durable query
    // THEN each is a usage error (exit 2) in one line, before any call
    assertThat(usageError("--timeout", "2x"))
        .contains("'2x' is not a duration such as 500ms, 30s, 5m or 1h");
    assertThat(usageError("--timeout", "0ms")).contains("timeout must be between 1 ms and 24 h");
    assertThat(usageError("--timeout", "5s", "--durable"))
        .contains("--timeout bounds interactive statements");
  }

  private static String usageError(String... flags) {
    StringWriter err = new StringWriter();
    CommandLine cli = ClientCli.commandLine();
    cli.setErr(new PrintWriter(err, true));
    String[] args = new String[flags.length + 5];
    args[0] = "sql";
    args[1] = "--url";
    args[2] = "grpc+tcp://127.0.0.1:1";
    args[3] = "--token";
    args[4] = "t";
    System.arraycopy(flags, 0, args, 5, flags.length);
    String[] withSql = java.util.Arrays.copyOf(args, args.length + 2);
    withSql[args.length] = "-e";
    withSql[args.length + 1] = "SELECT 1";
    assertThat(cli.execute(withSql)).as(err.toString()).isEqualTo(2);
    return err.toString();
  }
}
