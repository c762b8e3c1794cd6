package dev.lake.iceberg;

import dev.lake.core.Snapshot;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.iceberg.FileScanTask;

/**
 * Cuts a pinned Iceberg snapshot into splits of whole data files ({@link
 * dev.lake.core.SplitSource}): the unfiltered plan's data files, in plan order, grouped into
 * contiguous runs of about {@code targetRows} records (a file's record count from its manifest
 * entry, before deletes). A file's delete files travel with its tasks, so a split reads exactly the
 * rows the whole snapshot reads from those files.
 */
final class IcebergSplits {
  private IcebergSplits() {}

  static List<Snapshot> cut(
      IcebergSnapshot pinned, List<FileScanTask> tasks, long targetRows, int maxSplits) {
    Map<String, Long> rowsByFile = new LinkedHashMap<>();
    for (FileScanTask t : tasks) {
      rowsByFile.putIfAbsent(t.file().location(), t.file().recordCount());
    }
    long total = rowsByFile.values().stream().mapToLong(Long::longValue).sum();
    long target = Math.max(1, targetRows);
    long wanted = (total + target - 1) / target;
    int n = (int) Math.min(Math.min(wanted, maxSplits), rowsByFile.size());
    if (n < 2) {
      return List.of(pinned);
    }
    long share = (total + n - 1) / n;
    List<Snapshot> out = new ArrayList<>();
    List<String> current = new ArrayList<>();
    long acc = 0;
    int left = rowsByFile.size();
    for (Map.Entry<String, Long> e : rowsByFile.entrySet()) {
      current.add(e.getKey());
      acc += e.getValue();
      left--;
      int toOpen = n - out.size() - 1;
      if (toOpen > 0 && (acc >= share || left == toOpen)) {
        out.add(split(pinned, current));
        current = new ArrayList<>();
        acc = 0;
      }
    }
    if (!current.isEmpty()) {
      out.add(split(pinned, current));
    }
    return out;
  }

  private static Snapshot split(IcebergSnapshot pinned, List<String> files) {
    return new IcebergSnapshot(
        pinned.catalogName(),
        pinned.tableUuid(),
        pinned.snapshotId(),
        pinned.metadataLocation(),
        files.stream().sorted().toList());
  }
}
