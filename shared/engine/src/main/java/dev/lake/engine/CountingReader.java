package dev.lake.engine;

import dev.lake.core.ForwardingArrowReader;
import java.io.IOException;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.LongConsumer;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.ipc.ArrowReader;

/**
 * A stream that adds the Arrow buffer bytes of every batch it passes to a shared counter and fails
 * once the counter exceeds a budget, so a snapshot too large for the cache stops being read early;
 * with an unbounded budget it counts a query's scanned bytes ({@link ExecutionAccounting}).
 */
final class CountingReader extends ForwardingArrowReader {
  /** Thrown (as the cause of DuckDB's failure) when the budget is exceeded. */
  static final String OVER_BUDGET = "snapshot exceeds the cache budget";

  private final AtomicLong bytes;
  private final long budget;
  private final LongConsumer onBatch;

  CountingReader(BufferAllocator allocator, ArrowReader source, AtomicLong bytes, long budget) {
    this(allocator, source, bytes, budget, n -> {});
  }

  /**
   * As above; {@code onBatch} is told the bytes of every batch that stays within the budget (the
   * batch crossing it is counted, then the read fails, so a reservation never exceeds the budget).
   */
  CountingReader(
      BufferAllocator allocator,
      ArrowReader source,
      AtomicLong bytes,
      long budget,
      LongConsumer onBatch) {
    super(allocator, source);
    this.bytes = bytes;
    this.budget = budget;
    this.onBatch = onBatch;
  }

  @Override
  public boolean loadNextBatch() throws IOException {
    if (!source().loadNextBatch()) {
      return false;
    }
    long n = ExecutionAccounting.bytes(source().getVectorSchemaRoot());
    if (bytes.addAndGet(n) > budget) {
      throw new IOException(OVER_BUDGET);
    }
    onBatch.accept(n);
    return true;
  }
}
