package dev.lake.engine;

/**
 * What the engine's snapshot caches did since it started, summed over every memory pool
 * (observability; tests assert with it that copies are made and served).
 *
 * @param copies copies materialized
 * @param hits table reads answered from a copy
 * @param cachedBytes bytes of the copies held now
 */
public record SnapshotCacheStats(long copies, long hits, long cachedBytes) {
  public SnapshotCacheStats {
    if (copies < 0 || hits < 0 || cachedBytes < 0) {
      throw new IllegalArgumentException(
          "snapshot cache stats must not be negative: " + copies + "/" + hits + "/" + cachedBytes);
    }
  }
}
