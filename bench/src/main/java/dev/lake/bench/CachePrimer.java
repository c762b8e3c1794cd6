package dev.lake.bench;

import static java.util.Objects.requireNonNull;

import dev.lake.bench.ClientSpec.Group;
import dev.lake.core.CacheStats;
import java.time.Duration;
import java.util.List;
import java.util.Locale;

/**
 * Brings lake's snapshot cache to its steady state before a metric is timed: runs the given lake
 * groups untimed (each side twice per pass, in a client process of its own), then waits until no
 * background copy is queued or running ({@link CacheStats#snapshotCopiesPending()}), and repeats
 * until a pass made no copy. Why: the engine copies a snapshot after its second uncached read,
 * widening the copy when later queries read more of its columns, and a quick run's time-capped
 * warm-up otherwise lets such copies run during timed runs — measured as P3 single queries swinging
 * up to 2× between runs of one build (2026-12-02).
 */
final class CachePrimer {
  /** Passes at most: each widens copies by what the statements read, so two usually suffice. */
  static final int MAX_PASSES = 4;

  private CachePrimer() {}

  /**
   * Primes, waiting at most {@code idleWait} per pass for the copies, and returns the note's part
   * saying what it did.
   */
  static String prime(
      BenchContext context, LakeStack lake, List<Group> lakeGroups, Duration idleWait)
      throws Exception {
    requireNonNull(lakeGroups, "lakeGroups is null");
    requireNonNull(idleWait, "idleWait is null");
    long start = System.nanoTime();
    long copiesBefore = stats(lake).snapshotCopies();
    int passes = 0;
    boolean idle = true;
    while (passes < MAX_PASSES) {
      long copies = stats(lake).snapshotCopies();
      context.clients().run(new ClientSpec(0, 2, lake.token(), lakeGroups));
      passes++;
      idle = awaitIdle(lake, idleWait);
      if (stats(lake).snapshotCopies() == copies) {
        break; // nothing left to copy
      }
    }
    return String.format(
        Locale.ROOT,
        "; primed in %d untimed pass(es) of 2 lake reads per statement, %d copies made, %s after"
            + " %.1f s",
        passes,
        stats(lake).snapshotCopies() - copiesBefore,
        idle ? "cache idle" : "copies still pending",
        (System.nanoTime() - start) / 1e9);
  }

  private static boolean awaitIdle(LakeStack lake, Duration idleWait) throws InterruptedException {
    long deadline = System.nanoTime() + idleWait.toNanos();
    while (stats(lake).snapshotCopiesPending() > 0) {
      if (System.nanoTime() > deadline) {
        return false;
      }
      Thread.sleep(50);
    }
    return true;
  }

  private static CacheStats stats(LakeStack lake) {
    return lake.cacheStats().orElseThrow();
  }
}
