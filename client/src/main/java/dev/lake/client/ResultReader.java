package dev.lake.client;

import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.ipc.ArrowReader;

/**
 * A result being read: an {@link ArrowReader} that another thread may {@linkplain #cancel()
 * cancel}. Closing it before the end also stops the server's stream.
 */
public abstract class ResultReader extends ArrowReader {
  protected ResultReader(BufferAllocator allocator) {
    super(allocator);
  }

  /**
   * Stops the result from any thread: the server's stream is cancelled (which stops its statement)
   * and the reading thread's next {@link #loadNextBatch()} throws a {@link LakeClientException}
   * with status {@code CANCELLED}. Idempotent; the reader still has to be closed.
   */
  public abstract void cancel();
}
