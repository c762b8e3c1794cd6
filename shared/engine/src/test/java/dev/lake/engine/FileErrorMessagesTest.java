package dev.lake.engine;

import static org.assertj.core.api.Assertions.assertThat;

import dev.lake.core.ErrorCode;
import dev.lake.core.LakeException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Errors DuckDB raises while reading lake's own files (Iceberg data files in the file cache, spill)
 * never show a local path to the client; real DuckDB errors, mapped as the engine maps them.
 */
class FileErrorMessagesTest {
  private static final DuckDbExecution.Limits LIMITS =
      new DuckDbExecution.Limits(256L << 20, 1L << 30, 4, Duration.ofMinutes(5));

  @TempDir Path dir;

  private static LakeException failureOf(String sql) throws SQLException {
    try (Connection c = DriverManager.getConnection("jdbc:duckdb:");
        Statement s = c.createStatement()) {
      s.executeQuery(sql).next();
    } catch (SQLException e) {
      return EngineErrors.failure(e, false, LIMITS);
    }
    throw new AssertionError("no failure: " + sql);
  }

  @Test
  void aVanishedDataFile_isExternalUnavailable_withoutItsPath() throws Exception {
    // GIVEN a scan of a file that is gone (a cached data file removed under the engine)
    Path gone = dir.resolve("cache/data-0001.parquet");
    // WHEN DuckDB fails to read it
    LakeException e = failureOf("SELECT * FROM read_parquet('" + gone + "')");
    // THEN the client can retry, and learns nothing of the engine's directories
    assertThat(e.code()).isEqualTo(ErrorCode.EXTERNAL_UNAVAILABLE);
    assertThat(e.getMessage())
        .startsWith("The engine could not read or write a file of the query; retry later")
        .contains("<file>")
        .doesNotContain(dir.toString())
        .doesNotContain("LINE 1");
  }

  @Test
  void aBrokenDataFile_failsTheQuery_withoutItsPath() throws Exception {
    // GIVEN a file that is not Parquet
    Path broken = dir.resolve("data-0002.parquet");
    Files.write(broken, new byte[64]);
    // WHEN DuckDB reads it THEN the message names no path
    LakeException e = failureOf("SELECT * FROM read_parquet('" + broken + "')");
    assertThat(e.code()).isEqualTo(ErrorCode.QUERY_FAILED);
    assertThat(e.getMessage()).contains("<file>").doesNotContain(dir.toString());
  }

  @Test
  void aClientsStringLiteral_inAnOtherError_isKept() throws Exception {
    // GIVEN a conversion error quoting the client's own literal, which looks like a path
    LakeException e = failureOf("SELECT CAST('/not/a/number' AS INTEGER)");
    // THEN the message still shows it
    assertThat(e.code()).isEqualTo(ErrorCode.QUERY_FAILED);
    assertThat(e.getMessage()).contains("/not/a/number");
  }
}
