package dev.lake.engine;

import dev.lake.core.ErrorCode;
import dev.lake.core.LakeException;
import dev.lake.core.QueryExecution;
import dev.lake.core.QueryStats;
import dev.lake.core.ReleasingAllocator;
import java.io.IOException;
import java.math.BigDecimal;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.ipc.ArrowReader;
import org.duckdb.DuckDBResultSet;

/**
 * One prepared statement on its own connection. Execution starts lazily on the first pull of the
 * result reader (so {@link #cancel()} can reach a running query from another thread); results leave
 * DuckDB as an Arrow C stream pulled batch by batch. Owns the connection lease, the registered
 * inputs and the per-query child allocator; {@link #close()} frees all of them — a pooled
 * connection goes back for reuse only when the result was read to its end without cancel, deadline
 * or failure, and from then on this execution can no longer interrupt it.
 *
 * <p>Result batches are imported into an allocator of their own, a sibling of the query's: a caller
 * may hand them to gRPC for a zero-copy write (Netty releases them after writing, possibly after
 * this execution closed), and each imported batch keeps its C-data struct (80 bytes per array) in
 * the allocator it was imported with until its last buffer is released. That allocator closes at
 * its last release ({@link ReleasingAllocator}); the query's own allocator (inputs, scans) is
 * closed and leak-checked with the execution as before. DuckDB's exported arrays own their memory
 * (the Arrow C stream contract), so releasing them after the statement and connection closed is
 * safe.
 */
final class DuckDbExecution implements QueryExecution {
  private final PreparedConnections.Lease lease;
  private final PreparedStatement statement;
  private final BufferAllocator allocator;
  private final int batchSize;
  private final QueryInputs inputs;
  private final DuckDbResultReader reader;
  private final Limits limits;
  private final ExecutionAccounting accounting;
  private volatile boolean cancelled;
  private volatile boolean timedOut;
  private volatile boolean drained; // the result reached its end
  private volatile boolean failed;

  /** Guards the statement against an interrupt once the lease ended (it may serve another run). */
  private final Object interruptLock = new Object();

  private boolean released; // guarded by interruptLock
  private volatile java.util.concurrent.Future<?> deadline;
  private boolean closed;
  private ResultSet resultSet;
  private ArrowReader result;
  private volatile ReleasingAllocator results; // the result batches' allocator, made on first use

  private DuckDbExecution(
      PreparedConnections.Lease lease,
      BufferAllocator allocator,
      int batchSize,
      QueryInputs inputs,
      Limits limits,
      ExecutionAccounting accounting) {
    this.lease = lease;
    this.statement = lease.statement();
    this.allocator = allocator;
    this.batchSize = batchSize;
    this.inputs = inputs;
    this.limits = limits;
    this.accounting = accounting;
    this.reader = new DuckDbResultReader(allocator, this);
  }

  /**
   * What the error messages name when a limit ends a query: the engine's memory and spill bounds
   * and this execution's deadline.
   */
  /** A statement's bounds: its pool's memory and spill, the number of pools, its deadline. */
  record Limits(long memoryLimitBytes, long maxTempBytes, int pools, java.time.Duration timeout) {}

  /** Arms the deadline: {@link #expire()} runs when it passes; closing disarms it. */
  void deadline(java.util.concurrent.Future<?> future) {
    this.deadline = future;
  }

  /** The deadline passed: interrupt DuckDB; pulls then fail with DEADLINE_EXCEEDED. */
  void expire() {
    timedOut = true;
    cancel();
  }

  /**
   * Binds {@code parameters} positionally to the statement {@code lease} prepared ({@code null}
   * list: bind NULL to every placeholder, for planning). Ends the lease and closes everything else
   * it was handed if this fails.
   */
  static DuckDbExecution open(
      PreparedConnections.Lease lease,
      List<Object> parameters,
      BufferAllocator allocator,
      int batchSize,
      QueryInputs inputs,
      Limits limits,
      ExecutionAccounting accounting) {
    try {
      PreparedStatement ps = lease.statement();
      int expected = ps.getParameterMetaData().getParameterCount();
      if (parameters != null && parameters.size() != expected) {
        throw new LakeException(
            ErrorCode.INVALID_ARGUMENT,
            "The statement has " + expected + " parameters, " + parameters.size() + " were bound");
      }
      for (int i = 0; i < expected; i++) {
        bind(ps, i + 1, parameters == null ? null : parameters.get(i));
      }
      return new DuckDbExecution(lease, allocator, batchSize, inputs, limits, accounting);
    } catch (SQLException | RuntimeException e) {
      lease.close(false);
      inputs.close();
      allocator.close();
      throw e instanceof LakeException ? (LakeException) e : EngineErrors.failure(e, false, limits);
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
      throw stopped(null);
    }
    if (result == null) {
      try {
        resultSet = statement.executeQuery();
        results = ReleasingAllocator.childOf(allocator.getParentAllocator(), "query-result");
        result =
            DictionaryDecodingReader.of(
                results.allocator(),
                (ArrowReader)
                    ((DuckDBResultSet) resultSet)
                        .arrowExportStream(results.allocator(), batchSize));
      } catch (SQLException | IOException | RuntimeException e) {
        failed = true;
        throw cancelled ? stopped(e) : EngineErrors.failure(e, false, limits);
      }
      if (cancelled) {
        throw stopped(null);
      }
    }
    return result;
  }

  boolean next() {
    ArrowReader r = started();
    try {
      boolean more = r.loadNextBatch();
      if (more) {
        accounting.resultBatch(r.getVectorSchemaRoot());
      } else {
        drained = true;
      }
      return more;
    } catch (Exception e) {
      failed = true;
      throw cancelled ? stopped(e) : EngineErrors.failure(e, false, limits);
    }
  }

  @Override
  public QueryStats stats() {
    return accounting.stats(peakBytes());
  }

  @Override
  public CompletableFuture<QueryStats> statsLater() {
    return accounting.statsLater(peakBytes());
  }

  private long peakBytes() {
    ReleasingAllocator r = results;
    long resultPeak = r == null ? 0 : r.allocator().getPeakMemoryAllocation();
    return allocator.getPeakMemoryAllocation() + resultPeak;
  }

  /** Why a cancelled execution stopped: its deadline, or a cancel. */
  private LakeException stopped(Throwable cause) {
    if (timedOut) {
      return new LakeException(
          ErrorCode.DEADLINE_EXCEEDED,
          "The query ran longer than its deadline of "
              + human(limits.timeout())
              + " and was stopped; raise the engine's query timeout (--query-timeout, at most"
              + " --max-query-timeout) or submit it to the durable tier",
          cause);
    }
    return new LakeException(ErrorCode.CANCELLED, "The query was cancelled", cause);
  }

  private static String human(java.time.Duration d) {
    return d.toString().substring(2).toLowerCase(java.util.Locale.ROOT);
  }

  @Override
  public void cancel() {
    cancelled = true; // before the lock: a lease ending now sees it and is not reused
    interrupt();
  }

  /** Interrupts the statement if it is running and still this execution's. */
  private void interrupt() {
    synchronized (interruptLock) {
      if (released) {
        return;
      }
      try {
        statement.cancel();
      } catch (SQLException e) {
        // the statement already finished or closed: nothing left to interrupt
      }
    }
  }

  @Override
  public void close() {
    java.util.concurrent.Future<?> d = deadline;
    if (d != null) {
      d.cancel(false);
    }
    if (!drained) {
      cancel(); // interrupts a statement running in another thread, which holds the lock
    }
    synchronized (this) {
      if (!closed) {
        closeAll();
      }
    }
  }

  private void closeAll() {
    closed = true;
    boolean resultClosed = closeCleanly(result) & closeCleanly(resultSet);
    boolean reusable;
    synchronized (interruptLock) {
      released = true;
      // only a run that ended cleanly leaves its connection without interrupt or open result
      reusable = resultClosed && drained && !cancelled && !failed;
    }
    lease.close(reusable);
    inputs.close();
    if (results != null) {
      results.close(); // now, or when gRPC released the last batch it still writes
    }
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

  /** Closes {@code c} (null: nothing to close); false if closing threw. */
  private static boolean closeCleanly(AutoCloseable c) {
    try {
      if (c != null) {
        c.close();
      }
      return true;
    } catch (Exception e) {
      return false;
    }
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
