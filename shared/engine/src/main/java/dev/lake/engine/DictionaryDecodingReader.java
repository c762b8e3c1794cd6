package dev.lake.engine;

import static java.util.Objects.requireNonNull;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.ValueVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.dictionary.Dictionary;
import org.apache.arrow.vector.dictionary.DictionaryEncoder;
import org.apache.arrow.vector.ipc.ArrowReader;
import org.apache.arrow.vector.types.pojo.DictionaryEncoding;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.FieldType;
import org.apache.arrow.vector.types.pojo.Schema;

/**
 * A result reader whose columns carry values, never dictionary indices: DuckDB exports an ENUM
 * column dictionary-encoded, with its dictionary known only batch by batch, while a Flight stream
 * sends its dictionaries once when it starts and a durable part is a plain IPC stream. Each
 * dictionary-encoded column is decoded into its value type (an ENUM becomes its strings); other
 * columns move over without a copy. Only results with such a column are wrapped ({@link #of}).
 */
final class DictionaryDecodingReader extends ArrowReader {
  private final ArrowReader source;
  private final BufferAllocator allocator;

  private DictionaryDecodingReader(BufferAllocator allocator, ArrowReader source) {
    super(allocator);
    this.allocator = requireNonNull(allocator, "allocator is null");
    this.source = requireNonNull(source, "source is null");
  }

  /**
   * {@code source} itself when no column is dictionary-encoded, else a decoding view over it that
   * allocates in {@code allocator} and closes {@code source} when closed.
   */
  static ArrowReader of(BufferAllocator allocator, ArrowReader source) throws IOException {
    boolean encoded =
        source.getVectorSchemaRoot().getSchema().getFields().stream()
            .anyMatch(f -> f.getDictionary() != null);
    return encoded ? new DictionaryDecodingReader(allocator, source) : source;
  }

  @Override
  protected Schema readSchema() throws IOException {
    List<Field> fields = new ArrayList<>();
    for (Field f : source.getVectorSchemaRoot().getSchema().getFields()) {
      DictionaryEncoding encoding = f.getDictionary();
      if (encoding == null) {
        fields.add(f);
      } else {
        Field values = dictionary(encoding).getVector().getField();
        fields.add(
            new Field(
                f.getName(),
                new FieldType(f.isNullable(), values.getType(), null, f.getMetadata()),
                values.getChildren()));
      }
    }
    return new Schema(fields, source.getVectorSchemaRoot().getSchema().getCustomMetadata());
  }

  @Override
  public boolean loadNextBatch() throws IOException {
    VectorSchemaRoot out = getVectorSchemaRoot();
    if (!source.loadNextBatch()) {
      return false;
    }
    VectorSchemaRoot in = source.getVectorSchemaRoot();
    List<FieldVector> inputs = in.getFieldVectors();
    for (int i = 0; i < inputs.size(); i++) {
      FieldVector column = inputs.get(i);
      DictionaryEncoding encoding = column.getField().getDictionary();
      FieldVector target = out.getVector(i);
      if (encoding == null) {
        column.makeTransferPair(target).transfer();
      } else {
        try (ValueVector decoded =
            DictionaryEncoder.decode(column, dictionary(encoding), allocator)) {
          decoded.makeTransferPair(target).transfer();
        }
      }
    }
    out.setRowCount(in.getRowCount());
    return true;
  }

  private Dictionary dictionary(DictionaryEncoding encoding) {
    Dictionary d = source.lookup(encoding.getId());
    if (d == null) {
      throw new IllegalStateException("the result has no dictionary " + encoding.getId());
    }
    return d;
  }

  @Override
  public long bytesRead() {
    return source.bytesRead();
  }

  @Override
  protected void closeReadSource() throws IOException {
    source.close();
  }
}
