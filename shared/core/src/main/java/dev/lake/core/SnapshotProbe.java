package dev.lake.core;

/**
 * Implemented by a {@link dev.lake.core.TableReader} that can check cheaply (e.g. one file stat)
 * whether a sealed snapshot is still retained. The engine's snapshot cache only serves snapshots
 * whose reader implements this, and checks before every use, so a cached copy never outlives the
 * version it was read from.
 */
public interface SnapshotProbe {
  /**
   * Returns normally if {@code snapshot} of {@code ref} can still be read, and throws {@link
   * dev.lake.core.LakeException} with {@link dev.lake.core.ErrorCode#SNAPSHOT_GONE} (the same error
   * the uncached read throws) if it is gone.
   */
  void checkRetained(TableRef ref, Snapshot snapshot);
}
