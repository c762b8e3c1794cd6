package dev.lake.engine;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * The snapshot cache's byte budget, shared by the caches of every memory pool (docs/engine.md,
 * "Memory pools"). Each pool is guaranteed {@code share} bytes ({@code total / pools}); a pool may
 * borrow what the others do not hold, up to the whole budget, so a tenant alone gets all of it.
 * Borrowed bytes are reclaimed when another pool fills its own share: the borrower's bound shrinks
 * (never below its share) and its least valuable copies are evicted. Finished and in-flight copies
 * of all pools together stay within {@code total}.
 */
final class CacheBudget {
  private final long total;
  private final long share;
  private final List<SnapshotCache> caches = new CopyOnWriteArrayList<>();

  /** {@code total} bytes for {@code pools} pools (each guaranteed an equal share). */
  CacheBudget(long total, int pools) {
    if (total <= 0 || pools <= 0) {
      throw new IllegalArgumentException(
          "total and pools must be positive: " + total + ", " + pools);
    }
    this.total = total;
    this.share = total / pools;
  }

  /** What {@code cache} may hold now: its share, or more while the others hold less. */
  synchronized long room(SnapshotCache cache) {
    long others = 0;
    for (SnapshotCache c : caches) {
      if (c != cache) {
        others += c.heldBytes();
      }
    }
    return Math.max(share, total - others);
  }

  /** The bytes every pool may hold whatever the others hold. */
  long share() {
    return share;
  }

  void join(SnapshotCache cache) {
    caches.add(cache);
    rebalance();
  }

  void leave(SnapshotCache cache) {
    caches.remove(cache);
    rebalance();
  }

  /**
   * Bounds every cache by what the others hold now: {@code max(share, total - others)}, less its
   * own copies in flight. Called whenever a cache's holdings grow (a finished copy, a reservation)
   * or shrink (a returned reservation); a shrinking bound evicts at once.
   */
  synchronized void rebalance() {
    long held = 0;
    for (SnapshotCache c : caches) {
      held += c.heldBytes();
    }
    for (SnapshotCache c : caches) {
      long room = Math.max(share, total - (held - c.heldBytes()));
      c.bound(room - c.reservedBytes());
    }
  }
}
