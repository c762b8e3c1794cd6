package dev.lake.engine;

import java.util.Map;
import java.util.Set;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.dictionary.Dictionary;
import org.apache.arrow.vector.ipc.ArrowReader;
import org.apache.arrow.vector.types.pojo.Schema;

/**
 * The client-facing result reader: a thin view over DuckDB's exported Arrow stream that starts the
 * statement on first use ({@link #getVectorSchemaRoot()} or {@link #loadNextBatch()}).
 */
final class DuckDbResultReader extends ArrowReader {
  private final DuckDbExecution execution;

  DuckDbResultReader(BufferAllocator allocator, DuckDbExecution execution) {
    super(allocator);
    this.execution = execution;
  }

  @Override
  public VectorSchemaRoot getVectorSchemaRoot() throws java.io.IOException {
    return execution.started().getVectorSchemaRoot();
  }

  @Override
  public boolean loadNextBatch() {
    return execution.next();
  }

  @Override
  public Map<Long, Dictionary> getDictionaryVectors() throws java.io.IOException {
    return execution.started().getDictionaryVectors();
  }

  @Override
  public Dictionary lookup(long id) {
    return execution.started().lookup(id);
  }

  @Override
  public Set<Long> getDictionaryIds() {
    return execution.started().getDictionaryIds();
  }

  @Override
  public long bytesRead() {
    return 0;
  }

  @Override
  protected void closeReadSource() {
    execution.close();
  }

  @Override
  protected Schema readSchema() throws java.io.IOException {
    return getVectorSchemaRoot().getSchema();
  }
}
