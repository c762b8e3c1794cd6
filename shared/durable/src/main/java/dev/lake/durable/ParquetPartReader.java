package dev.lake.durable;

import static java.util.Objects.requireNonNull;

import dev.lake.core.ErrorCode;
import dev.lake.core.LakeException;
import dev.lake.core.job.DictionaryFreeReader;
import dev.lake.core.job.ResultConfig;
import java.io.IOException;
import java.util.List;
import java.util.stream.Collectors;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.ipc.ArrowReader;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.Schema;

/**
 * A decoded Parquet part held to the bounds of an IPC part, failing closed: the decoded schema must
 * have the manifest's column names and types, no batch may exceed {@link ResultConfig#maxBatchRows}
 * rows or {@link ResultConfig#maxMessageBytes} bytes, and the part must hold exactly the manifest's
 * row count. One decoded batch is resident at a time; closing releases the decoder (and its staged
 * file).
 */
final class ParquetPartReader extends DictionaryFreeReader {
  private final ArrowReader decoded;
  private final ResultConfig config;
  private final long expectedRows;
  private long rows;

  private ParquetPartReader(
      BufferAllocator allocator, ArrowReader decoded, ResultConfig config, long expectedRows) {
    super(allocator);
    this.decoded = decoded;
    this.config = config;
    this.expectedRows = expectedRows;
  }

  /** Wraps {@code decoded}, closing it if its schema is not {@code expected}'s. */
  static ArrowReader open(
      ArrowReader decoded,
      Schema expected,
      long expectedRows,
      ResultConfig config,
      BufferAllocator allocator) {
    requireNonNull(decoded, "decoded is null");
    try {
      Schema actual = decoded.getVectorSchemaRoot().getSchema();
      if (!sameShape(expected, actual)) {
        throw rejected("its columns are " + describe(actual) + ", not " + describe(expected));
      }
      return new ParquetPartReader(allocator, decoded, config, expectedRows);
    } catch (IOException | RuntimeException e) {
      closeQuietly(decoded, e);
      throw e instanceof LakeException le ? le : rejected(e.getMessage());
    }
  }

  @Override
  public VectorSchemaRoot getVectorSchemaRoot() throws IOException {
    return decoded.getVectorSchemaRoot();
  }

  @Override
  public boolean loadNextBatch() throws IOException {
    boolean more;
    try {
      more = decoded.loadNextBatch();
    } catch (IOException | RuntimeException e) {
      throw rejected(e.getMessage());
    }
    if (!more) {
      if (rows != expectedRows) {
        throw rejected("it holds " + rows + " rows, not " + expectedRows);
      }
      return false;
    }
    VectorSchemaRoot root = decoded.getVectorSchemaRoot();
    int count = root.getRowCount();
    rows += count;
    if (count > config.maxBatchRows() || rows > expectedRows) {
      throw rejected("a batch of " + count + " rows exceeds its bounds");
    }
    long bytes = 0;
    for (FieldVector v : root.getFieldVectors()) {
      bytes += v.getBufferSize();
    }
    if (bytes > config.maxMessageBytes()) {
      throw rejected("a batch of " + bytes + " bytes exceeds " + config.maxMessageBytes());
    }
    return true;
  }

  /** Same column names and Arrow types, recursively (nullability and metadata aside). */
  static boolean sameShape(Schema a, Schema b) {
    return sameFields(a.getFields(), b.getFields());
  }

  private static boolean sameFields(List<Field> a, List<Field> b) {
    if (a.size() != b.size()) {
      return false;
    }
    for (int i = 0; i < a.size(); i++) {
      Field x = a.get(i);
      Field y = b.get(i);
      if (!x.getName().equals(y.getName())
          || !x.getType().equals(y.getType())
          || !sameFields(x.getChildren(), y.getChildren())) {
        return false;
      }
    }
    return true;
  }

  /** {@code (name type, ...)} for error messages. */
  static String describe(Schema schema) {
    return schema.getFields().stream()
        .map(f -> f.getName() + " " + f.getType())
        .collect(Collectors.joining(", ", "(", ")"));
  }

  private static LakeException rejected(String why) {
    return new LakeException(ErrorCode.INTERNAL, "Result part rejected: " + why);
  }

  private static void closeQuietly(ArrowReader reader, Exception cause) {
    try {
      reader.close();
    } catch (IOException | RuntimeException e) {
      cause.addSuppressed(e);
    }
  }

  @Override
  public long bytesRead() {
    return decoded.bytesRead();
  }

  @Override
  protected void closeReadSource() throws IOException {
    decoded.close();
  }
}
