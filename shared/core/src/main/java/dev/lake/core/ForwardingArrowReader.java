package dev.lake.core;

import static java.util.Objects.requireNonNull;

import java.io.IOException;
import java.util.Map;
import java.util.Set;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.dictionary.Dictionary;
import org.apache.arrow.vector.ipc.ArrowReader;
import org.apache.arrow.vector.types.pojo.Schema;

/**
 * An {@link ArrowReader} that passes another reader's stream through: its root, batches,
 * dictionaries, byte count and schema are the source's, and closing it closes the source. Wrappers
 * (counting, recording, owning a scan's resources) override only what they add, so none forgets to
 * forward the dictionaries or the root.
 */
public abstract class ForwardingArrowReader extends ArrowReader {
  private final ArrowReader source;

  protected ForwardingArrowReader(BufferAllocator allocator, ArrowReader source) {
    super(allocator);
    this.source = requireNonNull(source, "source is null");
  }

  /** The stream passed through. */
  protected final ArrowReader source() {
    return source;
  }

  @Override
  public VectorSchemaRoot getVectorSchemaRoot() throws IOException {
    return source.getVectorSchemaRoot();
  }

  @Override
  public boolean loadNextBatch() throws IOException {
    return source.loadNextBatch();
  }

  @Override
  public Map<Long, Dictionary> getDictionaryVectors() throws IOException {
    return source.getDictionaryVectors();
  }

  @Override
  public Dictionary lookup(long id) {
    return source.lookup(id);
  }

  @Override
  public Set<Long> getDictionaryIds() {
    return source.getDictionaryIds();
  }

  @Override
  public long bytesRead() {
    return source.bytesRead();
  }

  /** Closes the source; a wrapper that does not own it overrides this. */
  @Override
  protected void closeReadSource() throws IOException {
    source.close();
  }

  @Override
  protected Schema readSchema() throws IOException {
    return source.getVectorSchemaRoot().getSchema();
  }
}
