package dev.lake.core.job;

import java.io.InputStream;
import java.io.OutputStream;
import java.util.List;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.ipc.ArrowReader;
import org.apache.arrow.vector.types.pojo.Schema;

/**
 * Encodes Arrow batches as one Parquet file and decodes one back: the port through which durable
 * results are stored as Parquet (the engine module implements it over a private DuckDB instance
 * that no tenant statement ever reaches); the same private instance runs a fan-out's combine step.
 * Implementations stage files in a directory of their own; callers see only streams.
 */
public interface ParquetCodec extends AutoCloseable {
  /**
   * Writes every batch {@code batches} yields (pulling them, possibly on another thread) as one
   * compressed Parquet file to {@code out}, in order. {@code allocator} is the batches' own (or
   * shares its root). An exception thrown by {@code batches} fails the write; the caller keeps the
   * original.
   *
   * @return the file's size and its schema as decoding will present it
   */
  Written write(ArrowReader batches, BufferAllocator allocator, OutputStream out);

  /**
   * Decodes the Parquet file in {@code in} (at most {@code maxBytes} bytes are read) as Arrow
   * batches of at most {@code batchRows} rows, in file order. {@code in} is consumed before this
   * returns (Parquet is read from its footer); the caller closes it. Closing the reader releases
   * everything. A file that is not valid Parquet fails, at the latest on the first {@code
   * loadNextBatch}.
   */
  ArrowReader read(InputStream in, long maxBytes, int batchRows, BufferAllocator allocator);

  /**
   * Runs lake's own combine step of a durable fan-out ({@code SplitPlan#combineSql}, never a
   * tenant's text) over {@code partials}, the children's rows in order (at least one reader, all of
   * one schema), which it reads as the relation {@code partials}; the result streams as Arrow
   * batches. The returned reader owns the inputs: closing it closes them (so does a failure here).
   * Bounded by this codec's private memory: a combine that does not fit fails {@code QUERY_FAILED}.
   */
  ArrowReader combine(String sql, List<ArrowReader> partials, BufferAllocator allocator);

  @Override
  void close();

  /** What {@link #write} produced. */
  record Written(long bytes, Schema decodedSchema) {
    public Written {
      java.util.Objects.requireNonNull(decodedSchema, "decodedSchema is null");
      if (bytes < 0) {
        throw new IllegalArgumentException("bytes must be >= 0: " + bytes);
      }
    }
  }
}
