package dev.lake.core;

/**
 * Implemented by a {@link dev.lake.core.TableReader} that can check cheaply (no extra round trip)
 * whether a sealed snapshot is still retained. The engine's snapshot cache only serves snapshots
 * whose reader implements this, and checks before every use, so a cached copy never outlives the
 * version it was read from as far as the reader knows. A check is only as fresh as the reader's
 * knowledge (Lance: one file stat; Iceberg: the table last loaded from the catalog), which is why
 * every caller still verifies its snapshots against the catalog per execution ({@link
 * TableResolver#startVerifyAll}: the front door sends no byte before it passed; the durable worker
 * verifies before it executes), exactly as for uncached reads.
 */
public interface SnapshotProbe {
  /**
   * Returns normally if {@code snapshot} of {@code ref} can still be read, and throws {@link
   * dev.lake.core.LakeException} with {@link dev.lake.core.ErrorCode#SNAPSHOT_GONE} (the same error
   * the uncached read throws) if it is gone.
   */
  void checkRetained(TableRef ref, Snapshot snapshot);

  /**
   * False if copies of {@code snapshot} must not be kept because two reads of the same sealed value
   * may differ (e.g. an Iceberg snapshot that records no schema id reads with the table's current
   * schema); asked after {@link #checkRetained} passed, and throws like it. True by default.
   */
  default boolean cacheable(TableRef ref, Snapshot snapshot) {
    return true;
  }
}
