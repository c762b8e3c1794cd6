package dev.lake.iceberg;

import static java.util.Objects.requireNonNull;

import dev.lake.core.Snapshot;

/**
 * One snapshot of a table owned by an external Iceberg REST catalog. The table UUID detects a
 * dropped-and-recreated table; the metadata location is informational (the catalog stays the
 * authority and is asked again on every point-load).
 */
public record IcebergSnapshot(
    String catalogName, String tableUuid, long snapshotId, String metadataLocation)
    implements Snapshot {
  public IcebergSnapshot {
    requireNonNull(catalogName, "catalogName is null");
    requireNonNull(tableUuid, "tableUuid is null");
    requireNonNull(metadataLocation, "metadataLocation is null");
  }

  @Override
  public String describe() {
    return "snapshot " + snapshotId;
  }
}
