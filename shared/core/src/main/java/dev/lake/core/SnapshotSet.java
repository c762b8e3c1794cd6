package dev.lake.core;

import static java.util.Objects.requireNonNull;

import java.util.Collections;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/** Every table a statement reads, each pinned to one snapshot; canonical (sorted) and bounded. */
public record SnapshotSet(Map<TableRef, Snapshot> snapshots) {
  /** At most this many distinct tables per statement. */
  public static final int MAX_TABLES = 64;

  public SnapshotSet {
    requireNonNull(snapshots, "snapshots is null");
    if (snapshots.size() > MAX_TABLES) {
      throw new LakeException(
          ErrorCode.RESOURCE_EXHAUSTED,
          "A statement may read at most "
              + MAX_TABLES
              + " tables, this one reads "
              + snapshots.size());
    }
    snapshots = Collections.unmodifiableSortedMap(new TreeMap<>(snapshots));
  }

  public static SnapshotSet empty() {
    return new SnapshotSet(Map.of());
  }

  public Optional<Snapshot> find(TableRef ref) {
    return Optional.ofNullable(snapshots.get(ref));
  }

  /**
   * The set as audit lines and metrics show it: table → {@code <format> <version or snapshot id>}
   * (e.g. {@code lance version 3}), sorted by table; never a storage location.
   */
  public Map<String, String> pins() {
    Map<String, String> pins = new java.util.LinkedHashMap<>();
    snapshots.forEach(
        (ref, s) ->
            pins.put(
                ref.toString(),
                TableFormats.installed().findTag(s).map(t -> t + " ").orElse("") + s.describe()));
    return Collections.unmodifiableMap(pins);
  }

  /** The snapshot of {@code ref}; a statement never reads a table it did not seal. */
  public Snapshot resolve(TableRef ref) {
    Snapshot s = snapshots.get(ref);
    if (s == null) {
      throw new LakeException(
          ErrorCode.INTERNAL, "Table " + ref + " is not in the sealed snapshot set");
    }
    return s;
  }
}
