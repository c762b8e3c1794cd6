package dev.lake.lance;

import static java.util.Objects.requireNonNull;

import dev.lake.core.Snapshot;
import java.util.List;

/**
 * A Lance dataset at one version of one registry incarnation. An unregister followed by a register
 * of the same name yields a new incarnation, so snapshots of the old one fail closed.
 *
 * @param fragments empty for the whole version; else a split ({@link dev.lake.core.SplitSource}):
 *     only these fragment ids of the version, ascending and distinct
 */
public record LanceSnapshot(
    String location, String incarnation, long version, List<Integer> fragments)
    implements Snapshot {
  public LanceSnapshot {
    requireNonNull(location, "location is null");
    requireNonNull(incarnation, "incarnation is null");
    fragments = List.copyOf(requireNonNull(fragments, "fragments is null"));
    if (location.isBlank()) {
      throw new IllegalArgumentException("location is blank");
    }
    if (version < 1) {
      throw new IllegalArgumentException("version must be >= 1: " + version);
    }
    for (int i = 1; i < fragments.size(); i++) {
      if (fragments.get(i) <= fragments.get(i - 1)) {
        throw new IllegalArgumentException("fragments must be ascending and distinct");
      }
    }
  }

  /** The whole version. */
  public LanceSnapshot(String location, String incarnation, long version) {
    this(location, incarnation, version, List.of());
  }

  /** Whether this is a split: some fragments of the version, not all. */
  public boolean restricted() {
    return !fragments.isEmpty();
  }

  /** The whole version this snapshot (or split) reads from. */
  public LanceSnapshot whole() {
    return restricted() ? new LanceSnapshot(location, incarnation, version) : this;
  }

  @Override
  public String describe() {
    return restricted()
        ? "version " + version + " (a split of " + fragments.size() + " fragments)"
        : "version " + version;
  }
}
