package dev.lake.core;

import static java.util.Objects.requireNonNull;

import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.ipc.ArrowReader;
import org.apache.arrow.vector.types.pojo.Schema;

/**
 * A stream with a schema and no batches: lets an engine bind a statement without reading data, and
 * stands for an empty result.
 */
public final class EmptyArrowReader extends ArrowReader {
  private final Schema schema;

  public EmptyArrowReader(BufferAllocator allocator, Schema schema) {
    super(allocator);
    this.schema = requireNonNull(schema, "schema is null");
  }

  @Override
  public boolean loadNextBatch() {
    return false;
  }

  @Override
  public long bytesRead() {
    return 0;
  }

  @Override
  protected void closeReadSource() {}

  @Override
  protected Schema readSchema() {
    return schema;
  }
}
