package dev.lake.engine.lance;

import java.util.concurrent.atomic.AtomicInteger;
import org.lance.Dataset;

/** A dataset shared by the streams of one scan; closed when the last holder releases it. */
final class SharedDataset {
  private final Dataset dataset;
  private final AtomicInteger refs = new AtomicInteger(1);

  SharedDataset(Dataset dataset) {
    this.dataset = dataset;
  }

  Dataset dataset() {
    return dataset;
  }

  void retain() {
    refs.incrementAndGet();
  }

  void release() {
    if (refs.decrementAndGet() == 0) {
      dataset.close();
    }
  }
}
