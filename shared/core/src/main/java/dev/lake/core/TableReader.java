package dev.lake.core;

import java.util.List;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.ipc.ArrowReader;
import org.apache.arrow.vector.types.pojo.Schema;

/**
 * Reads the data of one kind of snapshot (Lance, Iceberg) as Arrow streams for the engine. A reader
 * must read exactly the sealed snapshot and throw {@link ErrorCode#SNAPSHOT_GONE} if it is no
 * longer retained.
 */
public interface TableReader {
  /**
   * Loads what this reader's first read would load (native libraries, their runtimes) so a process
   * can pay for it before it serves: an engine process calls it before it listens, so a tenant's
   * first statement on a fresh process is not slowed by it. Reads no table. Default: nothing.
   */
  default void warmUp() {}

  /** Whether this reader handles {@code snapshot}. */
  boolean supports(Snapshot snapshot);

  /** The Arrow schema of the table at {@code snapshot}. */
  Schema schema(TableRef ref, Snapshot snapshot);

  /**
   * Opens the scan as one or more streams that together hold every row exactly once; the engine
   * consumes them in parallel. The caller closes every returned reader.
   */
  List<ArrowReader> scan(
      TableRef ref, Snapshot snapshot, ScanRequest request, BufferAllocator allocator);
}
