package dev.lake.durable;

import static java.util.Objects.requireNonNull;

import dev.lake.core.ErrorCode;
import dev.lake.core.LakeException;
import dev.lake.core.ObjectStore;
import dev.lake.core.job.ParquetCodec;
import dev.lake.core.job.PartRef;
import dev.lake.core.job.ResultConfig;
import dev.lake.core.job.ResultFormat;
import dev.lake.core.job.ResultManifest;
import java.io.InputStream;
import java.util.Optional;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.ipc.ArrowReader;
import org.apache.arrow.vector.ipc.ArrowStreamReader;

/**
 * Opens one stored result part for download. The object's size must match the sealed size (a
 * replaced or truncated part fails), and its bytes pass {@link IpcFramingCheck} before Arrow's
 * incremental stream decoder sees them; a part the store keeps as a local file is read batch by
 * batch instead ({@link FilePart}: the same checks per message, one positional read per body).
 * Decoding is pull-based: one batch is resident per {@code loadNextBatch}, which is the bounded
 * batch queue of depth one; closing the reader releases the object stream and every buffer.
 */
public final class ResultReader {
  /**
   * Rows per decoded Parquet batch: small enough that rows of up to 4 KiB stay within the default
   * message bound (64 MiB), large enough to stream at full speed.
   */
  public static final int PARQUET_BATCH_ROWS = 16_384;

  private final ObjectStore store;
  private final ResultConfig config;
  private final Optional<ParquetCodec> parquet;

  public ResultReader(ObjectStore store, ResultConfig config) {
    this(store, config, Optional.empty());
  }

  /** A reader that can also decode {@link ResultFormat#PARQUET} parts through {@code parquet}. */
  public ResultReader(ObjectStore store, ResultConfig config, Optional<ParquetCodec> parquet) {
    this.store = requireNonNull(store, "store is null");
    this.config = requireNonNull(config, "config is null");
    this.parquet = requireNonNull(parquet, "parquet is null");
  }

  /** Opens the part at {@code key}, which must be exactly {@code expectedBytes} long. */
  public ArrowReader open(String key, long expectedBytes, BufferAllocator allocator) {
    requireNonNull(allocator, "allocator is null");
    Optional<java.nio.file.Path> file = store.findLocalFile(key);
    if (file.isPresent()) {
      try {
        return FilePart.open(file.get(), expectedBytes, config, allocator);
      } catch (java.io.IOException e) {
        throw gone(); // replaced, truncated or removed since the ticket was sealed
      }
    }
    long size = store.size(key).orElseThrow(ResultReader::gone);
    if (size != expectedBytes) {
      throw gone();
    }
    InputStream in = store.find(key).orElseThrow(ResultReader::gone);
    return open(in, allocator);
  }

  /**
   * Opens Parquet part {@code index} of {@code manifest}, stored at {@code key} (both from a sealed
   * ticket), which must be exactly {@code expectedBytes} long, decode to the manifest's columns and
   * hold exactly the manifest's row count for it (see {@link ParquetPartReader}). Batches are
   * decoded at most {@link #PARQUET_BATCH_ROWS} rows at a time.
   */
  public ArrowReader openParquet(
      ResultManifest manifest,
      int index,
      String key,
      long expectedBytes,
      BufferAllocator allocator) {
    requireNonNull(manifest, "manifest is null");
    requireNonNull(allocator, "allocator is null");
    ParquetCodec codec =
        parquet.orElseThrow(
            () ->
                new LakeException(
                    ErrorCode.UNSUPPORTED, "This server cannot decode Parquet results"));
    PartRef part =
        manifest.parts().stream()
            .filter(p -> p.index() == index && p.key().equals(key))
            .findFirst()
            .orElseThrow(ResultReader::gone);
    long size = store.size(key).orElseThrow(ResultReader::gone);
    if (size != expectedBytes || part.bytes() != expectedBytes) {
      throw gone();
    }
    InputStream in = store.find(key).orElseThrow(ResultReader::gone);
    int batchRows = (int) Math.min(config.maxBatchRows(), PARQUET_BATCH_ROWS);
    ArrowReader decoded;
    try (in) {
      decoded = codec.read(in, expectedBytes, batchRows, allocator);
    } catch (java.io.IOException e) {
      throw new LakeException(ErrorCode.EXTERNAL_UNAVAILABLE, "Reading the result part failed", e);
    }
    return ParquetPartReader.open(decoded, manifest.schema(), part.rows(), config, allocator);
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
