package dev.lake.engine;

import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import org.duckdb.DuckDBConnection;

/**
 * Samples the whole database's buffer memory ({@code duckdb_memory()}) and spill files ({@code
 * duckdb_temporary_files()}) on a connection of its own. DuckDB 1.4 has no per-connection figure
 * that the hardened engine can read (its profiler is a per-connection setting, and the engine's
 * configuration is locked), so a sample covers every execution running at that moment. Samples are
 * taken on one daemon thread of the gauge's own, never on a query's thread: a sample waits for
 * nothing a query holds, and a query never waits for a sample.
 */
final class EngineGauge implements AutoCloseable {
  private static final String SQL =
      "SELECT (SELECT coalesce(sum(memory_usage_bytes), 0) FROM duckdb_memory()),"
          + " (SELECT coalesce(sum(size), 0) FROM duckdb_temporary_files())";

  /** One sample: buffer memory in use and bytes in temporary files. */
  record Sample(long memoryBytes, long spillBytes) {
    static final Sample NONE = new Sample(0, 0);
  }

  /** Samples waiting at most; more requests meanwhile are dropped (their query reports 0). */
  private static final int MAX_PENDING = 64;

  private final DuckDBConnection connection;
  private final ExecutorService sampler =
      new ThreadPoolExecutor(
          1,
          1,
          0,
          TimeUnit.SECONDS,
          new ArrayBlockingQueue<>(MAX_PENDING),
          r -> {
            Thread t = new Thread(r, "lake-engine-gauge");
            t.setDaemon(true);
            return t;
          },
          new ThreadPoolExecutor.DiscardPolicy());

  /** Takes ownership of {@code connection} (a duplicate of the engine's database). */
  EngineGauge(DuckDBConnection connection) {
    this.connection = connection;
  }

  /**
   * A sample taken soon on the gauge's thread; completes with {@link Sample#NONE} if the gauge is
   * closed, or never if the request was dropped (more than {@link #MAX_PENDING} waiting).
   */
  CompletableFuture<Sample> sampleLater() {
    CompletableFuture<Sample> sample = new CompletableFuture<>();
    try {
      sampler.execute(() -> sample.complete(sample()));
    } catch (RejectedExecutionException e) {
      sample.complete(Sample.NONE); // the gauge is closed: nothing to sample
    }
    return sample;
  }

  /** The figures now; {@link Sample#NONE} if the database cannot answer (e.g. closing). */
  synchronized Sample sample() {
    try (Statement s = connection.createStatement();
        ResultSet rs = s.executeQuery(SQL)) {
      rs.next();
      return new Sample(Math.max(0, rs.getLong(1)), Math.max(0, rs.getLong(2)));
    } catch (SQLException e) {
      return Sample.NONE; // accounting never fails a query
    }
  }

  @Override
  public void close() {
    sampler.shutdownNow();
    synchronized (this) {
      DuckDbExecution.closeQuietly(connection);
    }
  }
}
