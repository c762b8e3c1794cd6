package dev.lake.engine;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import dev.lake.core.ErrorCode;
import dev.lake.core.LakeException;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import org.junit.jupiter.api.Test;

/**
 * A query's setup (its connection, its input views) can meet DuckDB's shared memory pool full of
 * another query's data: that is a transient refusal the client may retry, never an internal error.
 */
class SetupFailureTest {

  @Test
  void setupFailure_isResourceExhausted_whenDuckDbIsOutOfMemory() throws Exception {
    // GIVEN a real DuckDB out-of-memory error, wrapped as the input registration wraps it
    SQLException oom;
    try (Connection c = DriverManager.getConnection("jdbc:duckdb:");
        Statement st = c.createStatement()) {
      st.execute("SET memory_limit = '8MB'");
      st.execute("SET temp_directory = ''");
      oom =
          catchThrowableOfType(
              SQLException.class,
              () -> st.executeQuery("SELECT list(range) FROM range(100000000)").next());
      // AND the connection still answers once the hog has failed
      try (Statement next = c.createStatement();
          var rs = next.executeQuery("SELECT 42")) {
        assertThat(rs.next()).isTrue();
        assertThat(rs.getInt(1)).isEqualTo(42);
      }
    }
    assertThat(oom.getMessage()).contains("Out of Memory");

    // WHEN it is classified
    LakeException e =
        EngineErrors.setupFailure("Cannot register query inputs", new RuntimeException(oom));

    // THEN the client is told to retry later
    assertThat(e.code()).isEqualTo(ErrorCode.RESOURCE_EXHAUSTED);
    assertThat(e).hasMessageContaining("retry later").hasRootCause(oom);
  }

  @Test
  void setupFailure_isInternal_whenTheCauseIsAnythingElse() {
    // GIVEN / WHEN a failure that is not about memory
    LakeException e =
        EngineErrors.setupFailure(
            "Cannot register query inputs", new SQLException("Catalog Error: no such view"));

    // THEN it stays an internal error naming the step
    assertThat(e.code()).isEqualTo(ErrorCode.INTERNAL);
    assertThat(e).hasMessage("Cannot register query inputs");
  }

  @Test
  void setupFailure_keepsALakeExceptionAsItIs() {
    LakeException original = new LakeException(ErrorCode.CANCELLED, "The query was cancelled");

    assertThat(EngineErrors.setupFailure("Cannot register query inputs", original))
        .isSameAs(original);
  }
}
