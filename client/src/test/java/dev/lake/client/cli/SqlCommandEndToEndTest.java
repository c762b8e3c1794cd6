package dev.lake.client.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.lake.client.LakeClient;
import dev.lake.client.LakeClientConfig;
import dev.lake.frontdoor.ClientTestLake;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * {@code lake sql} as a user runs it (a separate process: stdout, stderr, exit code) against the
 * lake {@code bin/lake local} runs, with the token taken from its data directory as a bare {@code
 * bin/lake sql} does.
 */
class SqlCommandEndToEndTest {
  private static final String LINEITEM = "SELECT * FROM lake.tpch.lineitem";

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
}
