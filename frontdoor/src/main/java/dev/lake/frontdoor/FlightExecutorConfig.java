package dev.lake.frontdoor;

import dev.lake.core.Bounds;

/**
 * The bounded executor that runs every Flight call of a {@link LakeServer} (gRPC's default is an
 * unbounded cached pool). A call that finds all threads busy waits in the queue, if there is one;
 * {@link CallLimit} refuses calls beyond three quarters of the threads with RESOURCE_EXHAUSTED, and
 * each connection may have at most half of those in flight ({@code
 * LakeServer.streamsPerConnection}), so one connection cannot overflow the queue; what a burst over
 * many connections overflows runs on {@link CallLimit#executor}'s overflow lane, which refuses new
 * calls RESOURCE_EXHAUSTED 'retry later'.
 *
 * @param threads most threads running calls at once (default 64, 4 - 4096; {@code
 *     --flight-threads}); a streaming DoGet or a call waiting for an admission slot holds one
 * @param queue calls waiting for a thread (default 0, 0 - 65536; {@code --flight-queue}): with 0 a
 *     call's work goes to the thread that went idle last or a new one, never waits for a thread,
 *     and what finds every thread busy runs on the overflow lane; a queue makes every task wake the
 *     thread idle longest instead, which was measured slower (see {@code CallLimit#executor})
 */
public record FlightExecutorConfig(int threads, int queue) {
  public static final int DEFAULT_THREADS = 64;
  public static final int DEFAULT_QUEUE = 0;

  public FlightExecutorConfig {
    Bounds.check("flightThreads", threads, 4, 4096);
    Bounds.check("flightQueue", queue, 0, 65536);
  }

  static FlightExecutorConfig defaults() {
    return new FlightExecutorConfig(DEFAULT_THREADS, DEFAULT_QUEUE);
  }
}
