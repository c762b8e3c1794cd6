package dev.lake.engine;

import dev.lake.core.QueryStats;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.VectorSchemaRoot;

/**
 * The running account of one execution: scanned bytes (added by the {@link CountingReader}s over
 * its table inputs), result bytes (added per result batch), and one {@link EngineGauge} sample
 * requested when the first result batch is ready — by then a blocking operator (hash aggregate,
 * join build, sort) has done its work and still holds its memory and spill files. The sample is
 * taken on the gauge's thread, so producing the first batch never waits for it; {@link #stats}
 * waits at most {@link #SAMPLE_WAIT_MILLIS} for it to land (reporting 0 if it has not, or if the
 * gauge dropped the request), {@link #statsLater} waits for nothing. Executions whose first batch
 * came within {@link #SAMPLE_AFTER_NANOS} are not sampled: a sample costs a query (0.4–2 ms
 * measured), more than such a query itself, and so little time cannot have built much state.
 */
final class ExecutionAccounting {
  /** Time to first batch after which the engine is sampled (20 ms). */
  static final long SAMPLE_AFTER_NANOS = 20_000_000L;

  /** Longest wait in {@link #stats} for a requested sample (100 ms). */
  static final long SAMPLE_WAIT_MILLIS = 100;

  private final AtomicLong scanned = new AtomicLong();
  private final AtomicLong result = new AtomicLong();
  private final EngineGauge gauge;
  private final long startNanos = System.nanoTime();

  private volatile CompletableFuture<EngineGauge.Sample> sample =
      CompletableFuture.completedFuture(EngineGauge.Sample.NONE);
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
        sample = gauge.sampleLater();
      }
    }
  }

  /**
   * @param peakBytes the execution's peak Arrow memory (inputs and result batches)
   */
  QueryStats stats(long peakBytes) {
    return statsLater(peakBytes).join(); // completes within SAMPLE_WAIT_MILLIS, never fails
  }

  /**
   * As {@link #stats(long)} once the sample landed (or {@link #SAMPLE_WAIT_MILLIS} passed), without
   * blocking the caller: the counters are read now, the sample's figures when it completes.
   */
  CompletableFuture<QueryStats> statsLater(long peakBytes) {
    long scannedNow = scanned.get();
    long resultNow = result.get();
    return sample
        .copy()
        .completeOnTimeout(EngineGauge.Sample.NONE, SAMPLE_WAIT_MILLIS, TimeUnit.MILLISECONDS)
        .handle(
            (s, failure) -> {
              EngineGauge.Sample landed = s == null ? EngineGauge.Sample.NONE : s;
              return new QueryStats(
                  scannedNow, resultNow, peakBytes, landed.memoryBytes(), landed.spillBytes());
            });
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
