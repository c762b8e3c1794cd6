package dev.lake.core;

import java.util.concurrent.CompletableFuture;
import org.apache.arrow.vector.ipc.ArrowReader;

/** One running statement. {@link #close()} stops it and frees everything it holds. */
public interface QueryExecution extends AutoCloseable {
  /** The result as a stream of batches; valid until {@link #close()}. */
  ArrowReader reader();

  /** Interrupts execution from any thread; a pending or later {@code loadNextBatch} then fails. */
  void cancel();

  /**
   * What the execution cost so far (final once its reader reported the end of the stream); {@link
   * QueryStats#NONE} for executions that measure nothing.
   */
  default QueryStats stats() {
    return QueryStats.NONE;
  }

  /**
   * The final {@link #stats()} without waiting: call it once the reader reported the end of the
   * stream, before {@link #close()}; the future completes (possibly later, on another thread) when
   * every figure has landed, and never fails. Lets a stream end without waiting for accounting.
   */
  default CompletableFuture<QueryStats> statsLater() {
    return CompletableFuture.completedFuture(stats());
  }

  @Override
  void close();
}
