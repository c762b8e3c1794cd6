package dev.lake.lance;

import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.arrow.vector.types.pojo.Schema;
import org.lance.Dataset;

/**
 * An open dataset at one version, with its schema and fragment list read once, shared by the handle
 * cache and every stream scanning it; the dataset is closed when the last holder releases it. A
 * dataset whose count reached zero can never be retained again.
 */
final class SharedDataset {
  /** One fragment: its id and row count. */
  record FragmentInfo(int id, long rows) {}

  private final Dataset dataset;
  private final Schema schema;
  private final List<FragmentInfo> fragments;
  private final AtomicInteger refs = new AtomicInteger(1);

  SharedDataset(Dataset dataset) {
    this.dataset = dataset;
    try {
      this.schema = dataset.getSchema();
      this.fragments =
          dataset.getFragments().stream()
              .map(f -> new FragmentInfo(f.getId(), f.countRows()))
              .toList();
    } catch (RuntimeException e) {
      dataset.close();
      throw e;
    }
  }

  Dataset dataset() {
    return dataset;
  }

  Schema schema() {
    return schema;
  }

  List<FragmentInfo> fragments() {
    return fragments;
  }

  /** Takes a reference unless the dataset is already closed (or closing). */
  boolean tryRetain() {
    while (true) {
      int n = refs.get();
      if (n <= 0) {
        return false;
      }
      if (refs.compareAndSet(n, n + 1)) {
        return true;
      }
    }
  }

  void release() {
    if (refs.decrementAndGet() == 0) {
      dataset.close();
    }
  }
}
