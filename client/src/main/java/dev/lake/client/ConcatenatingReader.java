package dev.lake.client;

import static java.util.Objects.requireNonNull;

import java.io.IOException;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.List;
import org.apache.arrow.flight.FlightRuntimeException;
import org.apache.arrow.flight.FlightStatusCode;
import org.apache.arrow.flight.FlightStream;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.util.AutoCloseables;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.ipc.ArrowStreamReader;
import org.apache.arrow.vector.types.pojo.Schema;

/**
 * One {@link ArrowReader} over a sequence of batch sources (Flight streams of the endpoints of a
 * result, or downloaded part files) read one after another. Each batch's buffers are transferred
 * into this reader's root, so only one batch is resident and the sources are opened lazily, one at
 * a time. Flight failures surface as {@link LakeClientException}.
 */
final class ConcatenatingReader extends ResultReader {
  /** One source of batches; opened only when the previous one is exhausted. */
  interface Source extends AutoCloseable {
    VectorSchemaRoot root();

    /** Loads the next batch into {@link #root()}; false at the end. */
    boolean next() throws IOException;

    /** Stops a remote source from another thread; its next {@link #next()} fails. */
    default void cancel() {}

    @Override
    void close() throws Exception;
  }

  /** Opens a source. */
  @FunctionalInterface
  interface Opener {
    Source open() throws IOException;
  }

  private final Schema fallback;
  private final Deque<Opener> pending;
  private volatile Source current;
  private volatile boolean cancelled;
  private long bytes;

  /**
   * @param fallback the schema when there is no source at all (an empty result)
   */
  ConcatenatingReader(BufferAllocator allocator, Schema fallback, List<Opener> sources) {
    super(allocator);
    this.fallback = requireNonNull(fallback, "fallback is null");
    this.pending = new ArrayDeque<>(requireNonNull(sources, "sources is null"));
  }

  /** A Flight stream as a source. */
  static Source flight(FlightStream stream) {
    return new Source() {
      @Override
      public VectorSchemaRoot root() {
        return stream.getRoot();
      }

      @Override
      public boolean next() {
        return stream.next();
      }

      @Override
      public void cancel() {
        stream.cancel("cancelled by the client", null);
      }

      @Override
      public void close() throws Exception {
        stream.close();
      }
    };
  }

  /** An Arrow IPC stream reader (a downloaded part) as a source. */
  static Source ipc(ArrowStreamReader reader) {
    return new Source() {
      @Override
      public VectorSchemaRoot root() {
        try {
          return reader.getVectorSchemaRoot();
        } catch (IOException e) {
          throw new java.io.UncheckedIOException(e);
        }
      }

      @Override
      public boolean next() throws IOException {
        return reader.loadNextBatch();
      }

      @Override
      public void close() throws Exception {
        reader.close();
      }
    };
  }

  @Override
  protected Schema readSchema() throws IOException {
    return translate(
        () -> {
          if (current == null && !pending.isEmpty()) {
            current = pending.poll().open();
          }
          return current == null ? fallback : current.root().getSchema();
        });
  }

  @Override
  public boolean loadNextBatch() throws IOException {
    prepareLoadNextBatch();
    return translate(
        () -> {
          while (true) {
            checkCancelled();
            if (current == null) {
              if (pending.isEmpty()) {
                return false;
              }
              current = pending.poll().open();
            }
            if (current.next()) {
              transfer(current.root(), getVectorSchemaRoot());
              return true;
            }
            closeCurrent();
          }
        });
  }

  private void transfer(VectorSchemaRoot from, VectorSchemaRoot to) {
    List<FieldVector> source = from.getFieldVectors();
    List<FieldVector> target = to.getFieldVectors();
    if (source.size() != target.size()) {
      throw new IllegalStateException(
          "a result part has " + source.size() + " columns, expected " + target.size());
    }
    for (int i = 0; i < source.size(); i++) {
      source.get(i).makeTransferPair(target.get(i)).transfer();
    }
    int rows = from.getRowCount();
    to.setRowCount(rows);
    for (FieldVector v : target) {
      bytes += v.getBufferSize();
    }
  }

  @Override
  public void cancel() {
    cancelled = true;
    Source s = current;
    if (s != null) {
      s.cancel();
    }
  }

  private void checkCancelled() {
    if (cancelled) {
      throw LakeClientException.cancelled("The statement was cancelled");
    }
  }

  @Override
  public long bytesRead() {
    return bytes;
  }

  /**
   * Closing before the end stops the server's stream; the CANCELLED status that Flight reports for
   * that (or for an earlier {@link #cancel()}) is what was asked for, not a failure.
   */
  @Override
  protected void closeReadSource() throws IOException {
    try {
      closeCurrent();
    } catch (FlightRuntimeException e) {
      if (e.status().code() != FlightStatusCode.CANCELLED) {
        throw e;
      }
    } finally {
      pending.clear();
    }
  }

  private void closeCurrent() throws IOException {
    Source s = current;
    current = null;
    if (s != null) {
      try {
        AutoCloseables.close(s);
      } catch (IOException | RuntimeException e) {
        throw e;
      } catch (Exception e) {
        throw new IOException(e);
      }
    }
  }

  private interface IoCall<T> {
    T call() throws IOException;
  }

  private static <T> T translate(IoCall<T> call) throws IOException {
    try {
      return call.call();
    } catch (FlightRuntimeException e) {
      throw LakeClientException.from(e);
    }
  }
}
