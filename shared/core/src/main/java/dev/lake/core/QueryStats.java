package dev.lake.core;

/**
 * What one execution cost, for accounting (audit lines, per-tenant meters, worker metrics). See
 * docs/operations.md "Per-query accounting" for which figures are exact and which are sampled.
 *
 * @param scannedBytes Arrow buffer bytes the execution pulled from its table readers (Lance,
 *     Iceberg) — exact; a table served from the engine's snapshot cache adds nothing
 * @param resultBytes Arrow buffer bytes of the result batches the execution produced — exact
 * @param arrowPeakBytes the peak of the execution's own Arrow allocator (input batches handed to
 *     the engine plus result batches) — exact
 * @param engineMemoryBytes the engine's buffer memory sampled while the execution ran; database
 *     wide (concurrent executions share it) — approximate, 0 when not sampled
 * @param spillBytes the engine's temporary (spill) files sampled at the same moment; database wide
 *     — approximate, 0 when not sampled
 */
public record QueryStats(
    long scannedBytes,
    long resultBytes,
    long arrowPeakBytes,
    long engineMemoryBytes,
    long spillBytes) {
  /** Nothing measured (an execution that reads no table, e.g. a stored result). */
  public static final QueryStats NONE = new QueryStats(0, 0, 0, 0, 0);

  public QueryStats {
    if (scannedBytes < 0
        || resultBytes < 0
        || arrowPeakBytes < 0
        || engineMemoryBytes < 0
        || spillBytes < 0) {
      throw new IllegalArgumentException(
          "query stats must not be negative: "
              + scannedBytes
              + "/"
              + resultBytes
              + "/"
              + arrowPeakBytes
              + "/"
              + engineMemoryBytes
              + "/"
              + spillBytes);
    }
  }

  /** The memory peak reported per query: exact Arrow peak plus the sampled engine memory. */
  public long memoryPeakBytes() {
    return arrowPeakBytes + engineMemoryBytes;
  }
}
