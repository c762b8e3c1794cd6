package dev.lake.durable;

import static java.util.Objects.requireNonNull;

import dev.lake.core.ErrorCode;
import dev.lake.core.LakeException;
import dev.lake.core.ObjectStore;
import dev.lake.core.job.DictionaryFreeReader;
import dev.lake.core.job.ParquetCodec;
import dev.lake.core.job.PartRef;
import dev.lake.core.job.ResultConfig;
import dev.lake.core.job.ResultFormat;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.ipc.ArrowReader;
import org.apache.arrow.vector.types.pojo.Schema;

/**
 * Materializes a result stream as bounded Parquet parts ({@code part-00000.parquet}, ...) through a
 * {@link ParquetCodec}. Parts are cut exactly where {@link ResultWriter} cuts IPC parts: after
 * {@link ResultConfig#maxPartRows} rows, or once the part's Arrow (uncompressed) size reached
 * {@link ResultConfig#maxPartBytes} (exceeded by at most one batch). A part's compressed size at
 * rest is therefore below its Arrow size, and decoding it yields no more than that.
 *
 * <p>Failure handling is {@link ResultWriter}'s: the open upload is aborted and completed parts are
 * deleted before the first error propagates, including an error the codec only saw as a failed pull
 * (a listener that stopped the attempt, the engine's deadline).
 */
final class ParquetPartWriter {
  private final ObjectStore store;
  private final ResultConfig config;
  private final ParquetCodec codec;

  ParquetPartWriter(ObjectStore store, ResultConfig config, ParquetCodec codec) {
    this.store = requireNonNull(store, "store is null");
    this.config = requireNonNull(config, "config is null");
    this.codec = requireNonNull(codec, "codec is null");
  }

  List<PartRef> writeParts(
      String directory,
      ArrowReader reader,
      BufferAllocator allocator,
      ResultWriter.Listener listener) {
    List<PartRef> parts = new ArrayList<>();
    try {
      Source source = new Source(reader, listener, parts);
      Schema schema = source.root.getSchema();
      ResultWriter.checkNoDictionaries(schema);
      while (source.hasRows()) {
        String key = ResultWriter.partKey(directory, parts.size(), ResultFormat.PARQUET);
        try (ObjectStore.Upload upload = store.create(key);
            PartSlice slice = new PartSlice(allocator, source)) {
          ParquetCodec.Written written;
          try {
            written = codec.write(slice, allocator, upload.stream());
          } catch (RuntimeException e) {
            throw slice.original(e);
          }
          if (slice.failure != null) {
            throw slice.original(slice.failure);
          }
          if (!ParquetPartReader.sameShape(schema, written.decodedSchema())) {
            throw new LakeException(
                ErrorCode.UNSUPPORTED,
                "The result has column types Parquet cannot carry exactly ("
                    + ParquetPartReader.describe(schema)
                    + " would read back as "
                    + ParquetPartReader.describe(written.decodedSchema())
                    + "); submit it without "
                    + ResultFormat.HEADER
                    + ": parquet");
          }
          upload.stream().flush();
          upload.complete();
          parts.add(new PartRef(parts.size(), key, slice.rows, written.bytes()));
        }
      }
      return List.copyOf(parts);
    } catch (IOException e) {
      ResultWriter.deleteParts(store, parts);
      throw new LakeException(ErrorCode.EXTERNAL_UNAVAILABLE, "Writing the result failed", e);
    } catch (RuntimeException | Error e) {
      ResultWriter.deleteParts(store, parts);
      throw e;
    }
  }

  /** The result stream, consumed across parts: the current batch and how far it was written. */
  private static final class Source {
    final ArrowReader reader;
    final ResultWriter.Listener listener;
    final List<PartRef> parts;
    final VectorSchemaRoot root;
    int offset;
    long rowsSoFar;
    boolean done;

    Source(ArrowReader reader, ResultWriter.Listener listener, List<PartRef> parts)
        throws IOException {
      this.reader = requireNonNull(reader, "reader is null");
      this.listener = requireNonNull(listener, "listener is null");
      this.parts = parts;
      this.root = reader.getVectorSchemaRoot();
    }

    /** Whether rows remain; loads the next non-empty batch when the current one is used up. */
    boolean hasRows() throws IOException {
      while (!done && offset >= root.getRowCount()) {
        if (!reader.loadNextBatch()) {
          done = true;
          return false;
        }
        offset = 0;
        rowsSoFar += root.getRowCount();
        listener.afterBatch(rowsSoFar, parts.size());
      }
      return !done;
    }
  }

  /**
   * One part's view of the source: yields its batches (slicing the one that crosses the row bound)
   * until the part is full or the source ends. Pulled by the codec, perhaps on a native thread, so
   * it remembers the first failure for the writer to rethrow unchanged.
   */
  private final class PartSlice extends DictionaryFreeReader {
    private final Source source;
    private VectorSchemaRoot current;
    private boolean ownsCurrent;
    long rows;
    private long bytes;
    Exception failure;

    PartSlice(BufferAllocator allocator, Source source) {
      super(allocator);
      this.source = source;
    }

    @Override
    public VectorSchemaRoot getVectorSchemaRoot() {
      return current != null ? current : source.root;
    }

    @Override
    public boolean loadNextBatch() throws IOException {
      release();
      if (failure != null || rows >= config.maxPartRows() || bytes >= config.maxPartBytes()) {
        return false;
      }
      try {
        if (!source.hasRows()) {
          return false;
        }
        VectorSchemaRoot root = source.root;
        int count = (int) Math.min(root.getRowCount() - source.offset, config.maxPartRows() - rows);
        if (source.offset == 0 && count == root.getRowCount()) {
          current = root;
        } else {
          current = root.slice(source.offset, count);
          ownsCurrent = true;
        }
        source.offset += count;
        rows += count;
        for (FieldVector v : current.getFieldVectors()) {
          bytes += v.getBufferSize();
        }
        return true;
      } catch (IOException | RuntimeException e) {
        failure = e;
        throw e;
      }
    }

    /** The exception to propagate: the first failure of a pull, else the codec's own. */
    RuntimeException original(Exception codecError) {
      Exception first = failure != null ? failure : codecError;
      if (first instanceof RuntimeException re) {
        if (re != codecError) {
          re.addSuppressed(codecError);
        }
        return re;
      }
      return new LakeException(ErrorCode.EXTERNAL_UNAVAILABLE, "Reading the result failed", first);
    }

    private void release() {
      if (ownsCurrent) {
        current.close();
      }
      current = null;
      ownsCurrent = false;
    }

    @Override
    public long bytesRead() {
      return bytes;
    }

    @Override
    protected void closeReadSource() {
      release();
    }
  }
}
