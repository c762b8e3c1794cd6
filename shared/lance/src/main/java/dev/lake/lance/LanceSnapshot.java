package dev.lake.lance;

import static java.util.Objects.requireNonNull;

import dev.lake.core.Snapshot;

/**
 * A Lance dataset at one version of one registry incarnation. An unregister followed by a register
 * of the same name yields a new incarnation, so snapshots of the old one fail closed.
 */
public record LanceSnapshot(String location, String incarnation, long version) implements Snapshot {
  public LanceSnapshot {
    requireNonNull(location, "location is null");
    requireNonNull(incarnation, "incarnation is null");
    if (location.isBlank()) {
      throw new IllegalArgumentException("location is blank");
    }
    if (version < 1) {
      throw new IllegalArgumentException("version must be >= 1: " + version);
    }
  }

  @Override
  public String describe() {
    return "version " + version;
  }
}
