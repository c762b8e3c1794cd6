package dev.lake.core.job;

import static java.util.Objects.requireNonNull;

import dev.lake.core.ErrorCode;
import dev.lake.core.LakeException;
import dev.lake.core.ObjectStore;
import java.io.InputStream;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.ipc.ArrowReader;
import org.apache.arrow.vector.ipc.ArrowStreamReader;

/**
 * Opens one stored result part for download. The object's size must match the sealed size (a
 * replaced or truncated part fails), and its bytes pass {@link IpcFramingCheck} before Arrow's
 * incremental stream decoder sees them. Decoding is pull-based: one batch is resident per {@code
 * loadNextBatch}, which is the bounded batch queue of depth one; closing the reader releases the
 * object stream and every buffer.
 */
public final class ResultReader {
  private final ObjectStore store;
  private final ResultConfig config;

  public ResultReader(ObjectStore store, ResultConfig config) {
    this.store = requireNonNull(store, "store is null");
    this.config = requireNonNull(config, "config is null");
  }

  /** Opens the part at {@code key}, which must be exactly {@code expectedBytes} long. */
  public ArrowReader open(String key, long expectedBytes, BufferAllocator allocator) {
    requireNonNull(allocator, "allocator is null");
    long size = store.size(key).orElseThrow(ResultReader::gone);
    if (size != expectedBytes) {
      throw gone();
    }
    InputStream in = store.find(key).orElseThrow(ResultReader::gone);
    return open(in, allocator);
  }

  /** Wraps an already opened IPC stream with the framing check and a decoder. */
  public ArrowReader open(InputStream in, BufferAllocator allocator) {
    return new ArrowStreamReader(new IpcFramingCheck(in, config), allocator);
  }

  private static LakeException gone() {
    return new LakeException(
        ErrorCode.NOT_FOUND, "Result part no longer exists; it expired or was replaced");
  }
}
