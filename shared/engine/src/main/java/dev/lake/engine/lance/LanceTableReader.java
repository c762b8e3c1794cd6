package dev.lake.engine.lance;

import static java.util.Objects.requireNonNull;

import dev.lake.core.LanceSnapshot;
import dev.lake.core.ScanRequest;
import dev.lake.core.Snapshot;
import dev.lake.core.TableReader;
import dev.lake.core.TableRef;
import java.util.ArrayList;
import java.util.List;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.ipc.ArrowReader;
import org.apache.arrow.vector.types.pojo.Schema;
import org.lance.Dataset;
import org.lance.Fragment;
import org.lance.ReadOptions;
import org.lance.ipc.LanceScanner;
import org.lance.ipc.ScanOptions;

/**
 * Reads a Lance dataset at EXACTLY the sealed version, never another. Scans are projected, may
 * carry a conservative filter, and are split into up to {@code parallelism} streams by groups of
 * whole fragments (every row exactly once).
 */
public final class LanceTableReader implements TableReader {
  private final BufferAllocator allocator;

  public LanceTableReader(BufferAllocator allocator) {
    this.allocator = requireNonNull(allocator, "allocator is null");
  }

  @Override
  public boolean supports(Snapshot snapshot) {
    return snapshot instanceof LanceSnapshot;
  }

  @Override
  public Schema schema(TableRef ref, Snapshot snapshot) {
    try (Dataset ds = open(ref, (LanceSnapshot) snapshot, allocator)) {
      return ds.getSchema();
    }
  }

  @Override
  public List<ArrowReader> scan(
      TableRef ref, Snapshot snapshot, ScanRequest request, BufferAllocator allocator) {
    Dataset ds = open(ref, (LanceSnapshot) snapshot, allocator);
    SharedDataset shared = new SharedDataset(ds);
    List<ArrowReader> out = new ArrayList<>();
    try {
      List<List<Integer>> groups = groups(ds.getFragments(), request.parallelism());
      String filter = LanceFilters.toFilter(request.filter());
      for (List<Integer> group : groups) {
        out.add(open(shared, request, group, filter, allocator));
      }
      return out;
    } catch (RuntimeException e) {
      for (ArrowReader r : out) {
        try {
          r.close();
        } catch (Exception ignored) {
          // error path: the original failure is reported
        }
      }
      throw e;
    } finally {
      shared.release(); // the streams hold their own references
    }
  }

  private static ArrowReader open(
      SharedDataset shared,
      ScanRequest request,
      List<Integer> fragments,
      String filter,
      BufferAllocator allocator) {
    ScanOptions.Builder options = new ScanOptions.Builder().batchSize(request.batchSize());
    if (!fragments.isEmpty()) {
      options.fragmentIds(fragments);
    }
    if (!request.columns().isEmpty()) {
      options.columns(request.columns());
    }
    if (!filter.isEmpty()) {
      options.filter(filter);
    }
    LanceScanner scanner = shared.dataset().newScan(options.build());
    shared.retain();
    try {
      return new LanceStream(allocator, scanner, scanner.scanBatches(), shared);
    } catch (RuntimeException e) {
      try {
        scanner.close();
      } catch (Exception ignored) {
        // error path
      }
      shared.release();
      throw e;
    }
  }

  /** Splits fragments into at most {@code parallelism} contiguous groups of similar row counts. */
  static List<List<Integer>> groups(List<Fragment> fragments, int parallelism) {
    List<List<Integer>> groups = new ArrayList<>();
    if (fragments.isEmpty()) {
      groups.add(List.of());
      return groups;
    }
    long total = 0;
    List<Long> rows = new ArrayList<>();
    for (Fragment f : fragments) {
      long n = f.countRows();
      rows.add(n);
      total += n;
    }
    int n = Math.min(parallelism, fragments.size());
    long target = Math.max(1, (total + n - 1) / n);
    List<Integer> current = new ArrayList<>();
    long acc = 0;
    for (int i = 0; i < fragments.size(); i++) {
      current.add(fragments.get(i).getId());
      acc += rows.get(i);
      int fragmentsLeft = fragments.size() - i - 1;
      int groupsToOpen = n - groups.size() - 1;
      if (groupsToOpen > 0 && (acc >= target || fragmentsLeft == groupsToOpen)) {
        groups.add(current);
        current = new ArrayList<>();
        acc = 0;
      }
    }
    if (!current.isEmpty()) {
      groups.add(current);
    }
    return groups;
  }

  static Dataset open(TableRef ref, LanceSnapshot snapshot, BufferAllocator allocator) {
    try {
      return Dataset.open()
          .allocator(allocator)
          .uri(snapshot.location())
          .readOptions(new ReadOptions.Builder().setVersion(snapshot.version()).build())
          .build();
    } catch (RuntimeException e) {
      throw LanceErrors.versionGone(ref, snapshot, e);
    }
  }
}
