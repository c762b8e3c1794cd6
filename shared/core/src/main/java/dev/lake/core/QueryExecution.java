package dev.lake.core;

import org.apache.arrow.vector.ipc.ArrowReader;

/** One running statement. {@link #close()} stops it and frees everything it holds. */
public interface QueryExecution extends AutoCloseable {
  /** The result as a stream of batches; valid until {@link #close()}. */
  ArrowReader reader();

  /** Interrupts execution from any thread; a pending or later {@code loadNextBatch} then fails. */
  void cancel();

  @Override
  void close();
}
