package dev.lake.core.job;

import java.io.IOException;
import java.util.Map;
import java.util.Set;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.dictionary.Dictionary;
import org.apache.arrow.vector.ipc.ArrowReader;
import org.apache.arrow.vector.types.pojo.Schema;

/**
 * An {@link ArrowReader} whose root comes from elsewhere (a decoder, a slice of another reader) and
 * whose batches carry no dictionaries, as durable results never do: the base of the readers that
 * forward Parquet parts. Subclasses supply the root, the batches and the release.
 */
public abstract class DictionaryFreeReader extends ArrowReader {
  protected DictionaryFreeReader(BufferAllocator allocator) {
    super(allocator);
  }

  @Override
  public abstract VectorSchemaRoot getVectorSchemaRoot() throws IOException;

  @Override
  public Map<Long, Dictionary> getDictionaryVectors() {
    return Map.of();
  }

  @Override
  public Dictionary lookup(long id) {
    return null;
  }

  @Override
  public Set<Long> getDictionaryIds() {
    return Set.of();
  }

  @Override
  protected Schema readSchema() throws IOException {
    return getVectorSchemaRoot().getSchema();
  }
}
