package dev.lake.core;

/**
 * What an engine's caches did since it started (observability: the front door exports these as
 * meters). Counters only grow; the byte figures are what is held now.
 *
 * @param snapshotCopies snapshot-cache copies made
 * @param snapshotHits table reads answered from a snapshot-cache copy
 * @param snapshotBytes bytes of the snapshot-cache copies held now
 * @param snapshotCopiesPending snapshots whose background copy is queued or running now
 * @param resultHits statements answered from a stored result (exact result reuse)
 * @param resultBytes bytes of the stored results held now
 */
public record CacheStats(
    long snapshotCopies,
    long snapshotHits,
    long snapshotBytes,
    long snapshotCopiesPending,
    long resultHits,
    long resultBytes) {
  /** An engine without caches. */
  public static final CacheStats NONE = new CacheStats(0, 0, 0, 0, 0, 0);

  public CacheStats {
    if (snapshotCopies < 0
        || snapshotHits < 0
        || snapshotBytes < 0
        || snapshotCopiesPending < 0
        || resultHits < 0
        || resultBytes < 0) {
      throw new IllegalArgumentException(
          "cache stats must not be negative: "
              + snapshotCopies
              + "/"
              + snapshotHits
              + "/"
              + snapshotBytes
              + "/"
              + snapshotCopiesPending
              + "/"
              + resultHits
              + "/"
              + resultBytes);
    }
  }

  /** These snapshot-cache figures with the given result-reuse figures. */
  public CacheStats withResults(long hits, long bytes) {
    return new CacheStats(
        snapshotCopies, snapshotHits, snapshotBytes, snapshotCopiesPending, hits, bytes);
  }
}
