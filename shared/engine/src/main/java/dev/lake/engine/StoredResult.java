package dev.lake.engine;

import dev.lake.core.ErrorCode;
import dev.lake.core.LakeException;
import dev.lake.core.QueryExecution;
import dev.lake.core.QueryStats;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.ipc.ArrowReader;
import org.apache.arrow.vector.ipc.ArrowStreamReader;

/** A complete result as Arrow IPC stream bytes (schema, then every batch). Immutable. */
record StoredResult(byte[] ipc) {
  /** Caffeine weight: the bytes plus a small per-entry overhead. */
  int weight() {
    return ipc.length + 256;
  }

  /** A new execution that streams this result into {@code allocator}'s memory. */
  QueryExecution replay(BufferAllocator allocator) {
    ArrowStreamReader reader = new ArrowStreamReader(new ByteArrayInputStream(ipc), allocator);
    return new QueryExecution() {
      @Override
      public ArrowReader reader() {
        return reader;
      }

      /** Nothing scanned; the result's size is its IPC bytes (framing included). */
      @Override
      public QueryStats stats() {
        return new QueryStats(0, ipc.length, 0, 0, 0);
      }

      @Override
      public void cancel() {
        // nothing runs: the caller stops pulling
      }

      @Override
      public void close() {
        try {
          reader.close();
        } catch (IOException e) {
          throw new LakeException(ErrorCode.INTERNAL, "Cannot close a stored result", e);
        }
      }
    };
  }
}
