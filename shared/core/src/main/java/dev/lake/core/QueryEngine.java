package dev.lake.core;

import java.util.List;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.types.pojo.Schema;

/**
 * Plans and runs admitted statements over exactly the snapshots in a {@link SnapshotSet}. The
 * engine never resolves tables itself.
 */
public interface QueryEngine extends AutoCloseable {
  /** The result schema of {@code query}, computed without reading table data. */
  Schema plan(AdmittedQuery query, SnapshotSet snapshots);

  /**
   * Starts {@code query} with positional {@code parameters} bound to its {@code ?} / {@code $n}
   * placeholders (null, Boolean, Long, Double, BigDecimal, String, LocalDate, LocalDateTime);
   * batches are produced incrementally as the caller pulls them. The caller closes the execution,
   * which also stops it.
   */
  QueryExecution execute(
      AdmittedQuery query,
      List<Object> parameters,
      SnapshotSet snapshots,
      BufferAllocator allocator);

  @Override
  void close();
}
