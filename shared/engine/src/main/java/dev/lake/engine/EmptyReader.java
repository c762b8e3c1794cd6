package dev.lake.engine;

import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.ipc.ArrowReader;
import org.apache.arrow.vector.types.pojo.Schema;

/** A stream with a schema and no batches: lets DuckDB bind a statement without reading data. */
final class EmptyReader extends ArrowReader {
  private final Schema schema;

  EmptyReader(BufferAllocator allocator, Schema schema) {
    super(allocator);
    this.schema = schema;
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
