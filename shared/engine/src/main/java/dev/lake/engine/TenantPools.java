package dev.lake.engine;

import static java.util.Objects.requireNonNull;

import dev.lake.core.CacheStats;
import dev.lake.core.ErrorCode;
import dev.lake.core.LakeException;
import dev.lake.core.Snapshot;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;
import org.apache.arrow.memory.BufferAllocator;

/**
 * Hands the engine's memory pools to tenants: a pool runs the statements of one tenant at a time
 * (every statement of that tenant while any runs), so no two tenants ever share a {@code
 * memory_limit}. A tenant without a running statement takes a free pool, preferring the one it used
 * last (its snapshot-cache copies are there), then the one idle longest. When every pool runs other
 * tenants' statements it waits for one, at most the given time, then {@code OVERLOADED} (retry
 * later). With the front door's default gates (8 statements, 4 per tenant) at least two tenants
 * always fit; the wait only happens when more tenants run at once than there are pools. One pool
 * means no isolation: every tenant shares it, nobody waits.
 */
final class TenantPools implements AutoCloseable {
  private final List<EnginePool> pools;
  private final ReentrantLock lock = new ReentrantLock();
  private final Condition freed = lock.newCondition();
  // all guarded by lock; index = pool
  private final String[] owner; // tenant whose statements run there, null when none
  private final int[] running; // leases held
  private final String[] lastOwner; // for cache affinity
  private final long[] idleSince; // ticks of the last release, for the longest-idle choice
  private long ticks;

  TenantPools(List<EnginePool> pools) {
    this.pools = List.copyOf(requireNonNull(pools, "pools is null"));
    if (this.pools.isEmpty()) {
      throw new IllegalArgumentException("at least one pool is needed");
    }
    owner = new String[this.pools.size()];
    running = new int[this.pools.size()];
    lastOwner = new String[this.pools.size()];
    idleSince = new long[this.pools.size()];
  }

  /**
   * Opens {@link EngineConfig#memoryPools()} pools of {@link EngineConfig#poolMemoryBytes()} each,
   * spilling to {@code <temp>/pool-N}, their snapshot caches sharing one {@link CacheBudget} of
   * {@link EngineConfig#snapshotCacheBytes()}; closes those already open if one fails.
   */
  static TenantPools open(
      EngineConfig config,
      List<String> readable,
      BufferAllocator cacheAllocator,
      SnapshotCacheSettings cacheSettings) {
    List<EnginePool> opened = new ArrayList<>();
    CacheBudget budget =
        config.snapshotCacheBytes() > 0
            ? new CacheBudget(config.snapshotCacheBytes(), config.memoryPools())
            : null;
    try {
      for (int i = 0; i < config.memoryPools(); i++) {
        opened.add(
            new EnginePool(
                config.poolMemoryBytes(),
                config.poolTempBytes(),
                config.tempDirectory().resolve("pool-" + i),
                config.threads(),
                readable,
                budget,
                cacheAllocator,
                cacheSettings));
      }
    } catch (RuntimeException e) {
      opened.forEach(DuckDbExecution::closeQuietly);
      throw e;
    }
    return new TenantPools(opened);
  }

  /** Drops every pool's cached copies of {@code snapshot} (its version is gone). */
  void evict(Snapshot snapshot) {
    for (EnginePool pool : pools) {
      if (pool.snapshotCache() != null) {
        pool.snapshotCache().evict(snapshot);
      }
    }
  }

  /** How many pools there are. */
  int size() {
    return pools.size();
  }

  /** The snapshot caches' counters summed over every pool (all zero with the cache off). */
  CacheStats cacheStats() {
    long copies = 0;
    long hits = 0;
    long bytes = 0;
    long pending = 0;
    for (EnginePool p : pools) {
      SnapshotCache c = p.snapshotCache();
      if (c != null) {
        copies += c.materializations();
        hits += c.hits();
        bytes += c.cachedBytes();
        pending += c.pendingCopies();
      }
    }
    return new CacheStats(copies, hits, bytes, pending, 0, 0);
  }

  /** The pool at {@code index} (tests, and the hardening checks of every pool). */
  EnginePool pool(int index) {
    return pools.get(index);
  }

  /**
   * A lease on the pool that runs {@code tenant}'s statements, waiting at most {@code wait} for
   * one; close it when the statement has ended (its connection closed).
   *
   * @throws LakeException OVERLOADED when no pool came free in time, CANCELLED when interrupted
   */
  Lease acquire(String tenant, Duration wait) {
    requireNonNull(tenant, "tenant is null");
    long deadline = System.nanoTime() + wait.toNanos();
    lock.lock();
    try {
      while (true) {
        int index = choose(tenant);
        if (index >= 0) {
          owner[index] = tenant;
          running[index]++;
          return new Lease(index);
        }
        long left = deadline - System.nanoTime();
        if (left <= 0) {
          throw new LakeException(
              ErrorCode.OVERLOADED,
              "Server busy: all "
                  + pools.size()
                  + " engine memory pools are running other tenants' statements (a pool runs one"
                  + " tenant's statements at a time, --engine-memory-pools); retry later");
        }
        freed.awaitNanos(left);
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new LakeException(ErrorCode.CANCELLED, "The query was cancelled", e);
    } finally {
      lock.unlock();
    }
  }

  /**
   * The tenant's own pool, else its last free one, else the free one idle longest; or -1. A single
   * pool is shared by every tenant (isolation off, {@code --engine-memory-pools 1}).
   */
  private int choose(String tenant) {
    if (owner.length == 1) {
      return 0;
    }
    int free = -1;
    for (int i = 0; i < owner.length; i++) {
      if (tenant.equals(owner[i])) {
        return i;
      }
    }
    for (int i = 0; i < owner.length; i++) {
      if (owner[i] == null) {
        if (tenant.equals(lastOwner[i])) {
          return i;
        }
        if (free < 0 || idleSince[i] < idleSince[free]) {
          free = i;
        }
      }
    }
    return free;
  }

  private void release(int index) {
    lock.lock();
    try {
      if (--running[index] == 0) { // with one shared pool, owner is whoever entered last
        lastOwner[index] = owner[index];
        owner[index] = null;
        idleSince[index] = ++ticks;
        freed.signalAll();
      }
    } finally {
      lock.unlock();
    }
  }

  /** Closes every pool (the engine is closing; no statement runs any more). */
  @Override
  public void close() {
    pools.forEach(DuckDbExecution::closeQuietly);
  }

  /** One statement's hold on a pool; closing it twice releases once. */
  final class Lease implements AutoCloseable {
    private final int index;
    private final AtomicBoolean released = new AtomicBoolean();

    private Lease(int index) {
      this.index = index;
    }

    EnginePool pool() {
      return pools.get(index);
    }

    @Override
    public void close() {
      if (released.compareAndSet(false, true)) {
        release(index);
      }
    }
  }

  /** For tests: the tenant currently holding pool {@code index}, or null. */
  String ownerForTest(int index) {
    lock.lock();
    try {
      return owner[index];
    } finally {
      lock.unlock();
    }
  }
}
