package dev.lake.durable;

import static java.util.Objects.requireNonNull;

import dev.lake.core.ErrorCode;
import dev.lake.core.LakeException;
import dev.lake.core.ObjectStore;
import dev.lake.core.job.ParquetCodec;
import dev.lake.core.job.PartRef;
import dev.lake.core.job.ResultConfig;
import dev.lake.core.job.ResultFormat;
import dev.lake.core.job.ResultLayout;
import dev.lake.core.job.ResultManifest;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.channels.Channels;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.VectorUnloader;
import org.apache.arrow.vector.ipc.ArrowReader;
import org.apache.arrow.vector.ipc.ArrowStreamWriter;
import org.apache.arrow.vector.ipc.WriteChannel;
import org.apache.arrow.vector.ipc.message.ArrowRecordBatch;
import org.apache.arrow.vector.ipc.message.IpcOption;
import org.apache.arrow.vector.ipc.message.MessageSerializer;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.Schema;

/**
 * Materializes a result stream as bounded Arrow IPC stream parts ({@code part-00000.arrow}, ...)
 * under one result directory, streaming each part through {@link ObjectStore#create} so no more
 * than one batch is held at a time. Batches above {@link ResultConfig#maxMessageBytes} or {@link
 * ResultConfig#maxBatchRows} are split, so every part passes the reader's framing check.
 *
 * <p>On any failure (including a {@link Listener} that throws to cancel) the open upload is aborted
 * and every completed part deleted before the exception propagates: nothing is left behind and no
 * manifest is written. {@link #publish} writes the manifest, exactly once, after all parts.
 */
public final class ResultWriter {
  /** Sees progress after each batch; throwing aborts the write (cancellation, lost lease). */
  public interface Listener {
    void afterBatch(long rowsSoFar, int partsSoFar);
  }

  /**
   * About how large one IPC message of a part is written (its body), when the engine's batch is
   * larger: a batch is cut into equal messages of at most about this size. Why: a download client
   * (Arrow Flight's Java client included) assembles each message in full before decoding it, so
   * large and uneven messages cost it CPU and pipelining. Served from memory by a plain Flight
   * server, lineitem's parts cut from the engine's 65,536-row batches (an 11.2 MB message plus a
   * 1.6 MB tail per part) downloaded at 0.68-0.75x the rate of the same parts in 37,500-row batches
   * (6.4 MB), and 25,000-row batches (4.3 MB) at 1.04-1.16x (docs/bench.md, 2026-12-02 11:15 UTC).
   */
  static final long TARGET_MESSAGE_BYTES = 4L << 20;

  private final ObjectStore store;
  private final ResultConfig config;
  private final Optional<ParquetCodec> parquet;
  private final long targetMessageBytes;

  public ResultWriter(ObjectStore store, ResultConfig config) {
    this(store, config, Optional.empty());
  }

  /** A writer that can also write {@link ResultFormat#PARQUET} parts through {@code parquet}. */
  public ResultWriter(ObjectStore store, ResultConfig config, Optional<ParquetCodec> parquet) {
    this(store, config, parquet, TARGET_MESSAGE_BYTES);
  }

  /** As above, cutting IPC messages at about {@code targetMessageBytes} (tests). */
  ResultWriter(
      ObjectStore store,
      ResultConfig config,
      Optional<ParquetCodec> parquet,
      long targetMessageBytes) {
    this.store = requireNonNull(store, "store is null");
    this.config = requireNonNull(config, "config is null");
    this.parquet = requireNonNull(parquet, "parquet is null");
    if (targetMessageBytes < 1) {
      throw new IllegalArgumentException("targetMessageBytes must be positive");
    }
    this.targetMessageBytes = targetMessageBytes;
  }

  /** The result directory of one attempt: {@code <prefix>/<tenant>/<queryId>}. */
  public static String directory(String resultPrefix, String tenant, String queryId) {
    return ResultLayout.directory(resultPrefix, tenant, queryId);
  }

  public static String partKey(String directory, int index) {
    return partKey(directory, index, ResultFormat.ARROW);
  }

  /** {@code <directory>/part-00000.arrow} or {@code .parquet}. */
  public static String partKey(String directory, int index, ResultFormat format) {
    return directory
        + String.format(java.util.Locale.ROOT, "/part-%05d.%s", index, format.extension());
  }

  public static String manifestKey(String directory) {
    return directory + "/" + ResultManifest.FILE_NAME;
  }

  /**
   * Writes every batch of {@code reader} into parts of {@code format} under {@code directory}.
   * Parquet needs the codec this writer was built with (else {@code UNSUPPORTED}) and the reader's
   * allocator (to hand batches to the codec).
   */
  public List<PartRef> writeParts(
      String directory,
      ArrowReader reader,
      ResultFormat format,
      BufferAllocator allocator,
      Listener listener) {
    if (format == ResultFormat.ARROW) {
      return writeParts(directory, reader, listener);
    }
    requireNonNull(directory, "directory is null");
    ParquetCodec codec =
        parquet.orElseThrow(
            () ->
                new LakeException(
                    ErrorCode.UNSUPPORTED, "This worker cannot write Parquet results"));
    return new ParquetPartWriter(store, config, codec)
        .writeParts(directory, reader, allocator, listener);
  }

  /** Writes every batch of {@code reader} into Arrow IPC parts under {@code directory}. */
  public List<PartRef> writeParts(String directory, ArrowReader reader, Listener listener) {
    requireNonNull(directory, "directory is null");
    requireNonNull(reader, "reader is null");
    requireNonNull(listener, "listener is null");
    List<PartRef> parts = new ArrayList<>();
    PartOut part = null;
    long rows = 0;
    try {
      VectorSchemaRoot root = reader.getVectorSchemaRoot();
      checkNoDictionaries(root.getSchema());
      while (reader.loadNextBatch()) {
        int count = root.getRowCount();
        long batchBytes = bufferBytes(root);
        int offset = 0;
        while (offset < count) {
          if (part == null) {
            part = new PartOut(partKey(directory, parts.size()), root.getSchema());
          }
          int room = (int) Math.min(config.maxPartRows() - part.rows, config.maxBatchRows());
          int chunk = Math.min(count - offset, room);
          writeEvenly(part, root, batchBytes, offset, chunk);
          offset += chunk;
          if (part.rows >= config.maxPartRows() || part.bytes() >= config.maxPartBytes()) {
            parts.add(part.finish(parts.size()));
            part = null;
          }
        }
        rows += count;
        listener.afterBatch(rows, parts.size());
      }
      if (part != null) {
        parts.add(part.finish(parts.size()));
        part = null;
      }
      return List.copyOf(parts);
    } catch (IOException e) {
      discard(part, parts);
      throw new LakeException(ErrorCode.EXTERNAL_UNAVAILABLE, "Writing the result failed", e);
    } catch (RuntimeException | Error e) {
      discard(part, parts);
      throw e;
    }
  }

  /**
   * Writes the manifest if none exists yet (conditional put); returns whether this call wrote it.
   */
  public boolean publish(String directory, ResultManifest manifest) {
    return store.put(manifestKey(directory), manifest.toJson(), false);
  }

  /** Deletes everything under {@code directory}: manifest first, so a reader never sees a torso. */
  public void discardAll(String directory) {
    store.delete(manifestKey(directory));
    for (String key : store.list(directory + "/")) {
      store.delete(key);
    }
  }

  private void discard(PartOut open, List<PartRef> completed) {
    if (open != null) {
      open.abort();
    }
    deleteParts(store, completed);
  }

  /** Deletes completed parts after a failure, best effort. */
  static void deleteParts(ObjectStore store, List<PartRef> completed) {
    for (PartRef p : completed) {
      try {
        store.delete(p.key());
      } catch (RuntimeException e) {
        // best effort: lifecycle rules reap what a dead store leaves; keep the first error
      }
    }
  }

  /**
   * Writes rows [offset, offset+length) of {@code root} (whose buffers hold {@code batchBytes}) as
   * messages of equal row counts (±1), as few as keep each at most about {@link
   * #targetMessageBytes} (estimated from the batch's bytes per row).
   */
  private void writeEvenly(
      PartOut part, VectorSchemaRoot root, long batchBytes, int offset, int length)
      throws IOException {
    long estimate =
        root.getRowCount() == 0 ? 0 : (long) ((double) batchBytes * length / root.getRowCount());
    int messages =
        (int)
            Math.max(1, Math.min(length, (estimate + targetMessageBytes - 1) / targetMessageBytes));
    int written = 0;
    for (int i = 0; i < messages; i++) {
      int rows = (length - written) / (messages - i);
      writeChunk(part, root, offset + written, rows);
      written += rows;
    }
  }

  private static long bufferBytes(VectorSchemaRoot root) {
    long bytes = 0;
    for (FieldVector v : root.getFieldVectors()) {
      bytes += v.getBufferSize();
    }
    return bytes;
  }

  /** Writes rows [offset, offset+length) as one message, halving while it is too large. */
  private void writeChunk(PartOut part, VectorSchemaRoot root, int offset, int length)
      throws IOException {
    boolean whole = offset == 0 && length == root.getRowCount();
    VectorSchemaRoot slice = whole ? root : root.slice(offset, length);
    try {
      VectorUnloader unloader = new VectorUnloader(slice);
      try (ArrowRecordBatch batch = unloader.getRecordBatch()) {
        if (batch.computeBodyLength() > config.maxMessageBytes()) {
          if (length == 1) {
            throw new LakeException(
                ErrorCode.RESOURCE_EXHAUSTED,
                "A single result row exceeds the durable message limit of "
                    + config.maxMessageBytes()
                    + " bytes");
          }
          int half = length / 2;
          writeChunk(part, root, offset, half);
          writeChunk(part, root, offset + half, length - half);
          return;
        }
        MessageSerializer.serialize(part.channel, batch);
        part.rows += length;
      }
    } finally {
      if (!whole) {
        slice.close();
      }
    }
  }

  static void checkNoDictionaries(Schema schema) {
    for (Field f : schema.getFields()) {
      if (hasDictionary(f)) {
        throw new LakeException(
            ErrorCode.UNSUPPORTED, "Dictionary-encoded results cannot be materialized");
      }
    }
  }

  private static boolean hasDictionary(Field f) {
    return f.getDictionary() != null || f.getChildren().stream().anyMatch(c -> hasDictionary(c));
  }

  /** One part being uploaded. */
  private final class PartOut {
    final String key;
    final ObjectStore.Upload upload;
    final WriteChannel channel;
    long rows;

    PartOut(String key, Schema schema) throws IOException {
      this.key = key;
      this.upload = store.create(key);
      OutputStream out = upload.stream();
      this.channel = new WriteChannel(Channels.newChannel(out));
      try {
        MessageSerializer.serialize(channel, schema);
      } catch (IOException | RuntimeException e) {
        upload.close();
        throw e;
      }
    }

    long bytes() {
      return channel.getCurrentPosition();
    }

    PartRef finish(int index) throws IOException {
      ArrowStreamWriter.writeEndOfStream(channel, IpcOption.DEFAULT);
      long size = channel.getCurrentPosition();
      try {
        upload.stream().flush();
        upload.complete();
      } catch (UncheckedIOException e) {
        upload.close();
        throw e.getCause();
      } catch (RuntimeException e) {
        upload.close();
        throw e;
      } finally {
        upload.close();
      }
      return new PartRef(index, key, rows, size);
    }

    void abort() {
      try {
        upload.close();
      } catch (RuntimeException e) {
        // aborting after a failure: the original error matters more
      }
    }
  }
}
