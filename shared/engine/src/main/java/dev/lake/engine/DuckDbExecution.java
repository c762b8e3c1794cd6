package dev.lake.engine;

import dev.lake.core.ErrorCode;
import dev.lake.core.LakeException;
import dev.lake.core.QueryExecution;
import java.math.BigDecimal;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.util.List;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.ipc.ArrowReader;
import org.duckdb.DuckDBConnection;
import org.duckdb.DuckDBResultSet;

/**
 * One prepared statement on its own connection. Execution starts lazily on the first pull of the
 * result reader (so {@link #cancel()} can reach a running query from another thread); results leave
 * DuckDB as an Arrow C stream pulled batch by batch. Owns the connection, the registered inputs and
 * the per-query child allocator; {@link #close()} frees all of them.
 */
final class DuckDbExecution implements QueryExecution {
  private final DuckDBConnection connection;
  private final PreparedStatement statement;
  private final BufferAllocator allocator;
  private final int batchSize;
  private final QueryInputs inputs;
  private final DuckDbResultReader reader;
  private volatile boolean cancelled;
  private boolean closed;
  private ResultSet resultSet;
  private ArrowReader result;

  private DuckDbExecution(
      DuckDBConnection connection,
      PreparedStatement statement,
      BufferAllocator allocator,
      int batchSize,
      QueryInputs inputs) {
    this.connection = connection;
    this.statement = statement;
    this.allocator = allocator;
    this.batchSize = batchSize;
    this.inputs = inputs;
    this.reader = new DuckDbResultReader(allocator, this);
  }

  /**
   * Prepares {@code sql} and binds {@code parameters} positionally ({@code null} list: bind NULL to
   * every placeholder, for planning). Closes everything it was handed if this fails.
   */
  static DuckDbExecution open(
      DuckDBConnection connection,
      String sql,
      List<Object> parameters,
      BufferAllocator allocator,
      int batchSize,
      QueryInputs inputs) {
    PreparedStatement ps = null;
    try {
      ps = connection.prepareStatement(sql);
      int expected = ps.getParameterMetaData().getParameterCount();
      if (parameters != null && parameters.size() != expected) {
        throw new LakeException(
            ErrorCode.INVALID_ARGUMENT,
            "The statement has " + expected + " parameters, " + parameters.size() + " were bound");
      }
      for (int i = 0; i < expected; i++) {
        bind(ps, i + 1, parameters == null ? null : parameters.get(i));
      }
      return new DuckDbExecution(connection, ps, allocator, batchSize, inputs);
    } catch (SQLException | RuntimeException e) {
      closeQuietly(ps);
      closeQuietly(connection);
      inputs.close();
      allocator.close();
      throw e instanceof LakeException ? (LakeException) e : failure(e, false);
    }
  }

  private static void bind(PreparedStatement ps, int index, Object value) throws SQLException {
    if (value == null) {
      ps.setObject(index, null);
    } else if (value instanceof Boolean) {
      ps.setBoolean(index, (Boolean) value);
    } else if (value instanceof Long || value instanceof Integer) {
      ps.setLong(index, ((Number) value).longValue());
    } else if (value instanceof Double) {
      ps.setDouble(index, (Double) value);
    } else if (value instanceof BigDecimal) {
      ps.setBigDecimal(index, (BigDecimal) value);
    } else if (value instanceof String) {
      ps.setString(index, (String) value);
    } else if (value instanceof LocalDate || value instanceof LocalDateTime) {
      ps.setObject(index, value);
    } else {
      throw new LakeException(
          ErrorCode.INVALID_ARGUMENT,
          "Parameter " + index + " has unsupported type " + value.getClass().getSimpleName());
    }
  }

  @Override
  public ArrowReader reader() {
    return reader;
  }

  /** The DuckDB result reader, executing the statement on first use. */
  synchronized ArrowReader started() {
    if (closed) {
      throw new LakeException(ErrorCode.CANCELLED, "The query was closed");
    }
    if (cancelled) {
      throw new LakeException(ErrorCode.CANCELLED, "The query was cancelled");
    }
    if (result == null) {
      try {
        resultSet = statement.executeQuery();
        result =
            (ArrowReader) ((DuckDBResultSet) resultSet).arrowExportStream(allocator, batchSize);
      } catch (SQLException | RuntimeException e) {
        throw failure(e, cancelled);
      }
      if (cancelled) {
        throw new LakeException(ErrorCode.CANCELLED, "The query was cancelled");
      }
    }
    return result;
  }

  boolean next() {
    ArrowReader r = started();
    try {
      return r.loadNextBatch();
    } catch (Exception e) {
      throw failure(e, cancelled);
    }
  }

  @Override
  public void cancel() {
    cancelled = true;
    try {
      statement.cancel();
    } catch (SQLException e) {
      // the statement already finished or closed: nothing left to interrupt
    }
  }

  @Override
  public void close() {
    cancel(); // interrupts a statement running in another thread, which holds the lock
    synchronized (this) {
      if (!closed) {
        closeAll();
      }
    }
  }

  private void closeAll() {
    closed = true;
    closeQuietly(result);
    closeQuietly(resultSet);
    closeQuietly(statement);
    closeQuietly(connection);
    inputs.close();
    closeAllocator(allocator); // throws if the query leaked Arrow memory: a bug, never swallowed
  }

  /** How long {@link #closeAllocator} waits for DuckDB's worker threads to release batches. */
  private static final long DRAIN_NANOS = 500_000_000L;

  /**
   * Closes a per-query allocator. DuckDB may release the last C-exported batch of a scan from a
   * worker thread shortly after the connection closed (its pipeline task ends asynchronously), so
   * this waits briefly for the allocator to drain; memory still held after that is a real leak and
   * the close throws.
   */
  static void closeAllocator(BufferAllocator allocator) {
    long deadline = System.nanoTime() + DRAIN_NANOS;
    while (allocator.getAllocatedMemory() != 0 && System.nanoTime() < deadline) {
      try {
        Thread.sleep(1);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        break;
      }
    }
    allocator.close();
  }

  static LakeException failure(Throwable e, boolean cancelled) {
    if (e instanceof LakeException) {
      return (LakeException) e;
    }
    String message = String.valueOf(e.getMessage());
    if (cancelled || message.contains("INTERRUPT")) {
      return new LakeException(ErrorCode.CANCELLED, "The query was cancelled", e);
    }
    if (message.contains("Out of Memory") || message.contains("max_temp_directory_size")) {
      return new LakeException(
          ErrorCode.RESOURCE_EXHAUSTED, "The query exceeded the engine's memory or spill bound", e);
    }
    String shown =
        message.replaceAll(
            "(lake_cache\\.)?lake_([pqm][0-9]+_t[0-9]+(_s[0-9]+)?|c[0-9]+)", "<table>");
    return new LakeException(ErrorCode.QUERY_FAILED, shown, e);
  }

  static void closeQuietly(AutoCloseable c) {
    if (c == null) {
      return;
    }
    try {
      c.close();
    } catch (Exception e) {
      // best effort on an error path; the original failure is what the caller sees
    }
  }
}
