package dev.lake.iceberg;

import static java.util.Objects.requireNonNull;

import dev.lake.core.Snapshot;
import java.util.List;

/**
 * One snapshot of a table owned by an external Iceberg REST catalog. The table UUID detects a
 * dropped-and-recreated table; the metadata location is informational (the catalog stays the
 * authority and is asked again on every point-load).
 *
 * @param files empty for the whole snapshot; else a split ({@link dev.lake.core.SplitSource}): only
 *     the snapshot's data files at these locations, each read with its delete files; sorted and
 *     distinct. Sealed only inside job envelopes, never shown (see {@link #describe()}).
 */
public record IcebergSnapshot(
    String catalogName,
    String tableUuid,
    long snapshotId,
    String metadataLocation,
    List<String> files)
    implements Snapshot {
  public IcebergSnapshot {
    requireNonNull(catalogName, "catalogName is null");
    requireNonNull(tableUuid, "tableUuid is null");
    requireNonNull(metadataLocation, "metadataLocation is null");
    files = List.copyOf(requireNonNull(files, "files is null"));
    for (int i = 1; i < files.size(); i++) {
      if (files.get(i).compareTo(files.get(i - 1)) <= 0) {
        throw new IllegalArgumentException("files must be sorted and distinct");
      }
    }
  }

  /** The whole snapshot. */
  public IcebergSnapshot(
      String catalogName, String tableUuid, long snapshotId, String metadataLocation) {
    this(catalogName, tableUuid, snapshotId, metadataLocation, List.of());
  }

  /** Whether this is a split: some data files of the snapshot, not all. */
  public boolean restricted() {
    return !files.isEmpty();
  }

  @Override
  public String describe() {
    return restricted()
        ? "snapshot " + snapshotId + " (a split of " + files.size() + " data files)"
        : "snapshot " + snapshotId;
  }
}
