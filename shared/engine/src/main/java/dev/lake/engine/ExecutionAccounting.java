package dev.lake.engine;

import dev.lake.core.QueryStats;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.VectorSchemaRoot;

/**
 * The running account of one execution: scanned bytes (added by the {@link CountingReader}s over
 * its table inputs), result bytes (added per result batch), and one {@link EngineGauge} sample
 * requested when the first result batch is ready — by then a blocking operator (hash aggregate,
 * join build, sort) has done its work and still holds its memory and spill files. The sample is
 * taken on the gauge's thread, so the query does not wait for it; a query that ends before it lands
 * reports 0. Executions whose first batch came within {@link #SAMPLE_AFTER_NANOS} are not sampled:
 * a sample costs a query (0.4–2 ms measured), more than such a query itself, and so little time
 * cannot have built much state.
 */
final class ExecutionAccounting {
  /** Time to first batch after which the engine is sampled (20 ms). */
  static final long SAMPLE_AFTER_NANOS = 20_000_000L;

  private final AtomicLong scanned = new AtomicLong();
  private final AtomicLong result = new AtomicLong();
  private final EngineGauge gauge;
  private final long startNanos = System.nanoTime();
  private volatile EngineGauge.Sample sample = EngineGauge.Sample.NONE;
  private boolean firstSeen;

  /**
   * @param gauge the engine's gauge, or null to never sample (planning)
   */
  ExecutionAccounting(EngineGauge gauge) {
    this.gauge = gauge;
  }

  /** The counter the table inputs' {@link CountingReader}s add to. */
  AtomicLong scanned() {
    return scanned;
  }

  /** Counts one result batch; the first one may sample the engine. Called by the pulling thread. */
  void resultBatch(VectorSchemaRoot root) {
    result.addAndGet(bytes(root));
    if (!firstSeen) {
      firstSeen = true;
      if (gauge != null && System.nanoTime() - startNanos >= SAMPLE_AFTER_NANOS) {
        gauge.sampleLater(s -> sample = s);
      }
    }
  }

  QueryStats stats(BufferAllocator allocator) {
    EngineGauge.Sample s = sample;
    return new QueryStats(
        scanned.get(),
        result.get(),
        allocator.getPeakMemoryAllocation(),
        s.memoryBytes(),
        s.spillBytes());
  }

  /** Arrow buffer bytes of a batch (the same measure as the front door's egress). */
  static long bytes(VectorSchemaRoot root) {
    long n = 0;
    for (FieldVector v : root.getFieldVectors()) {
      n += v.getBufferSize();
    }
    return n;
  }
}
