package dev.lake.lance;

import dev.lake.core.ForwardingArrowReader;
import java.io.IOException;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.ipc.ArrowReader;
import org.lance.ipc.LanceScanner;

/**
 * One Lance scan stream that also owns its scanner and a reference to the dataset, so closing the
 * stream (e.g. when DuckDB releases the exported C stream) frees all of them.
 */
final class LanceStream extends ForwardingArrowReader {
  private final LanceScanner scanner;
  private final SharedDataset dataset;
  private boolean closed;

  LanceStream(
      BufferAllocator allocator, LanceScanner scanner, ArrowReader batches, SharedDataset dataset) {
    super(allocator, batches);
    this.scanner = scanner;
    this.dataset = dataset;
  }

  @Override
  protected synchronized void closeReadSource() throws IOException {
    if (closed) {
      return;
    }
    closed = true;
    try {
      source().close();
      scanner.close();
    } catch (IOException e) {
      throw e;
    } catch (Exception e) {
      throw new IOException("cannot close a Lance scan", e);
    } finally {
      dataset.release();
    }
  }
}
