package dev.lake.client.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * {@code lake sql} run as a user runs it (a separate process): a reader that closes the pipe early,
 * a missing {@code -f} file, the address {@code bin/lake local} left in its data directory, and a
 * server that is not there.
 */
class CliOutputEndToEndTest {
  @TempDir Path dir;

  @ParameterizedTest
  @CsvSource({"csv", "table"})
  void closedPipe_stopsTheStreamQuietlyWithExit0_andTheServerServesTheNextQuery(String format) {
    // GIVEN a result that would stream for days, read by something that stops after 4 KiB (| head)
    Cli.Result r =
        Cli.runReadingOnly(
            4096,
            dir,
            SharedLake.localUser(),
            "sql",
            "--format",
            format,
            "-e",
            "SELECT range AS n, 'row ' || range AS t FROM range(1000000000000000)");

    // THEN the command ends by itself, quietly, with exit 0
    assertThat(r.stderr()).isEmpty();
    assertThat(r.exit()).isZero();
    assertThat(r.stdout()).hasSize(4096);
    // and the next statement (another user's first) runs
    Cli.Result next = Cli.run(dir, SharedLake.localUser(), "sql", "-e", "SELECT 3 AS three");
    assertThat(next.stdout()).isEqualTo("three\n3\n");
  }

  @Test
  void missingSqlFile_isAUsageError() {
    Cli.Result r = Cli.run(dir, SharedLake.localUser(), "sql", "-f", "missing.sql");

    assertThat(r.exit()).isEqualTo(2);
    assertThat(r.stderr()).isEqualTo("lake: -f missing.sql: no such file\n");
  }

  @Test
  void withoutUrl_theAddressInTheDataDirIsUsed() throws Exception {
    // GIVEN a data directory where bin/lake local (on a non-default port) left its address + token
    Path data = dir.resolve("data");
    Files.createDirectories(data);
    Files.writeString(data.resolve("url"), SharedLake.get().url() + "\n", StandardCharsets.UTF_8);
    Files.writeString(data.resolve("demo-token"), SharedLake.get().token(), StandardCharsets.UTF_8);

    // WHEN a bare statement runs with only --data-dir
    Cli.Result r =
        Cli.run(dir, Map.of(), "sql", "--data-dir", data.toString(), "-e", "SELECT 1 AS one");

    // THEN it reached that server
    assertThat(r.stderr()).isEmpty();
    assertThat(r.stdout()).isEqualTo("one\n1\n");
  }

  @Test
  void unreachableServer_isOneLineNamingTheAddressTried() {
    Cli.Result r =
        Cli.run(
            dir,
            Map.of(),
            "sql",
            "--url",
            "grpc+tcp://127.0.0.1:1",
            "--token",
            "t",
            "-e",
            "SELECT 1");

    assertThat(r.exit()).isEqualTo(1);
    assertThat(r.errLines()).hasSize(1);
    assertThat(r.stderr())
        .startsWith("lake: UNAVAILABLE: cannot reach lake at grpc+tcp://127.0.0.1:1 (")
        .contains("--url or LAKE_URL");
  }
}
