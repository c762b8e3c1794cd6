package dev.lake.engine;

import static java.util.Objects.requireNonNull;

import dev.lake.core.ForwardingArrowReader;
import dev.lake.core.QueryExecution;
import dev.lake.core.QueryStats;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.util.concurrent.CompletableFuture;
import java.util.function.BooleanSupplier;
import java.util.function.Consumer;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.dictionary.DictionaryProvider;
import org.apache.arrow.vector.ipc.ArrowReader;
import org.apache.arrow.vector.ipc.ArrowStreamWriter;

/**
 * An execution whose batches are also written, as the caller pulls them, into Arrow IPC bytes; when
 * the stream ends normally (never cancelled, no failure) and stayed within {@code maxBytes}, the
 * complete result goes to {@code store}. The caller sees the delegate's own root and batches.
 */
final class RecordingExecution implements QueryExecution {
  private final QueryExecution delegate;
  private final BufferAllocator allocator;
  private final long maxBytes;
  private final Consumer<StoredResult> store;
  private volatile boolean cancelled;
  private Recorder reader;

  RecordingExecution(
      QueryExecution delegate,
      BufferAllocator allocator,
      long maxBytes,
      Consumer<StoredResult> store) {
    this.delegate = requireNonNull(delegate, "delegate is null");
    this.allocator = requireNonNull(allocator, "allocator is null");
    this.maxBytes = maxBytes;
    this.store = requireNonNull(store, "store is null");
  }

  @Override
  public synchronized ArrowReader reader() {
    if (reader == null) {
      reader = new Recorder(delegate.reader(), allocator, maxBytes, store, () -> cancelled);
    }
    return reader;
  }

  @Override
  public void cancel() {
    cancelled = true;
    delegate.cancel();
  }

  @Override
  public QueryStats stats() {
    return delegate.stats();
  }

  @Override
  public CompletableFuture<QueryStats> statsLater() {
    return delegate.statsLater();
  }

  @Override
  public void close() {
    delegate.close();
  }

  private static final class Recorder extends ForwardingArrowReader {
    private final long maxBytes;
    private final Consumer<StoredResult> store;
    private final BooleanSupplier cancelled;
    private ByteArrayOutputStream out;
    private ArrowStreamWriter writer;
    private boolean stopped;

    Recorder(
        ArrowReader source,
        BufferAllocator allocator,
        long maxBytes,
        Consumer<StoredResult> store,
        BooleanSupplier cancelled) {
      super(allocator, source);
      this.maxBytes = maxBytes;
      this.store = store;
      this.cancelled = cancelled;
    }

    @Override
    public boolean loadNextBatch() throws IOException {
      if (out == null && writer == null && !stopped) {
        start();
      }
      boolean more = source().loadNextBatch();
      if (writer != null) {
        record(more);
      }
      return more;
    }

    private void start() throws IOException {
      if (!source().getDictionaryVectors().isEmpty()) {
        stopped = true; // dictionary-encoded results are streamed, not stored
        return;
      }
      out = new ByteArrayOutputStream();
      writer =
          new ArrowStreamWriter(
              source().getVectorSchemaRoot(), new DictionaryProvider.MapDictionaryProvider(), out);
      writer.start();
    }

    private void record(boolean more) throws IOException {
      if (more) {
        writer.writeBatch();
        if (out.size() > maxBytes) {
          stop();
        }
        return;
      }
      writer.end();
      byte[] bytes = out.toByteArray();
      stop();
      if (!cancelled.getAsBoolean() && bytes.length <= maxBytes) {
        store.accept(new StoredResult(bytes));
      }
    }

    private void stop() {
      writer = null;
      out = null;
      stopped = true;
    }

    @Override
    protected void closeReadSource() {
      // the delegate execution owns the source; closing the execution closes it
    }
  }
}
