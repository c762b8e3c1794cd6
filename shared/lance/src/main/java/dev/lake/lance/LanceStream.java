package dev.lake.lance;

import java.io.IOException;
import java.util.Map;
import java.util.Set;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.dictionary.Dictionary;
import org.apache.arrow.vector.ipc.ArrowReader;
import org.apache.arrow.vector.types.pojo.Schema;
import org.lance.ipc.LanceScanner;

/**
 * One Lance scan stream that also owns its scanner and a reference to the dataset, so closing the
 * stream (e.g. when DuckDB releases the exported C stream) frees all of them.
 */
final class LanceStream extends ArrowReader {
  private final LanceScanner scanner;
  private final ArrowReader batches;
  private final SharedDataset dataset;
  private boolean closed;

  LanceStream(
      BufferAllocator allocator, LanceScanner scanner, ArrowReader batches, SharedDataset dataset) {
    super(allocator);
    this.scanner = scanner;
    this.batches = batches;
    this.dataset = dataset;
  }

  @Override
  public VectorSchemaRoot getVectorSchemaRoot() throws IOException {
    return batches.getVectorSchemaRoot();
  }

  @Override
  public boolean loadNextBatch() throws IOException {
    return batches.loadNextBatch();
  }

  @Override
  public Map<Long, Dictionary> getDictionaryVectors() throws IOException {
    return batches.getDictionaryVectors();
  }

  @Override
  public Dictionary lookup(long id) {
    return batches.lookup(id);
  }

  @Override
  public Set<Long> getDictionaryIds() {
    return batches.getDictionaryIds();
  }

  @Override
  public long bytesRead() {
    return batches.bytesRead();
  }

  @Override
  protected synchronized void closeReadSource() throws IOException {
    if (closed) {
      return;
    }
    closed = true;
    try {
      batches.close();
      scanner.close();
    } catch (IOException e) {
      throw e;
    } catch (Exception e) {
      throw new IOException("cannot close a Lance scan", e);
    } finally {
      dataset.release();
    }
  }

  @Override
  protected Schema readSchema() throws IOException {
    return batches.getVectorSchemaRoot().getSchema();
  }
}
