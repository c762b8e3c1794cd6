package dev.lake.engine;

import static java.util.Objects.requireNonNull;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import com.github.benmanes.caffeine.cache.Scheduler;
import dev.lake.core.ErrorCode;
import dev.lake.core.LakeException;
import dev.lake.core.Snapshot;
import dev.lake.core.SnapshotProbe;
import dev.lake.core.TableReader;
import dev.lake.core.TableRef;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.types.pojo.Schema;
import org.duckdb.DuckDBConnection;

/**
 * Table snapshots materialized in the engine's DuckDB database (schema {@code lake_cache}), keyed
 * by snapshot identity and column set. Snapshots are immutable, so a copy stays exact for as long
 * as the version exists: every use first asks the reader's {@link SnapshotProbe}, and a gone
 * version evicts its copies and throws {@code SNAPSHOT_GONE} like the uncached read.
 *
 * <p>A query never waits for a copy: a miss reads uncached, and once a snapshot has been read
 * uncached {@code fillAfterUses} times one background thread copies it (one copy at a time, one
 * pending copy per snapshot). Bounded by Arrow bytes (Caffeine W-TinyLFU) within a {@link
 * CacheBudget} shared with the other pools' caches: this cache may hold what the others do not, and
 * at least its share. A copy in flight reserves its bytes as it reads them (the bound for finished
 * copies shrinks by as much, evicting them), so finished plus in-flight copies of all pools stay
 * within the budget. A projection larger than the whole budget stops copying early and is read
 * uncached (remembered, not retried). Copies unused for {@code idle} are dropped. A query holds a
 * lease on the table it reads; an evicted table is dropped when its last lease ends.
 */
final class SnapshotCache implements AutoCloseable {
  static final String SCHEMA = "lake_cache";

  /** A cached copy: exactly {@code columns} (table order) of {@code snapshot}. */
  record Key(Snapshot snapshot, List<String> columns) {}

  /** What a background copy reads: the table's reader and schema (every column, table order). */
  record Source(TableRef ref, TableReader reader, Schema schema, int batchSize, int parallelism) {}

  /** One materialized table; counted references (the cache holds one). */
  final class Table {
    private final String name;
    private final long bytes;
    private final AtomicInteger refs = new AtomicInteger(1);

    Table(String name, long bytes) {
      this.name = name;
      this.bytes = bytes;
    }

    /** The qualified table name to read. */
    String name() {
      return name;
    }

    long bytes() {
      return bytes;
    }

    private boolean tryRetain() {
      while (true) {
        int n = refs.get();
        if (n <= 0) {
          return false;
        }
        if (refs.compareAndSet(n, n + 1)) {
          return true;
        }
      }
    }

    void release() {
      if (refs.decrementAndGet() == 0) {
        copier.drop(name);
      }
    }
  }

  private final CacheBudget budget;
  private final SnapshotCacheSettings settings;
  private final SnapshotCopier copier;
  private final Cache<Key, Table> tables;
  // projections whose copy stopped, with the room it had: retried only once there is more room
  private final Cache<Key, Long> tooLarge =
      Caffeine.newBuilder().maximumSize(1024).<Key, Long>build();
  private final Cache<Snapshot, AtomicInteger> uses;
  private final Set<Snapshot> pending = ConcurrentHashMap.newKeySet();
  private final AtomicLong reserved = new AtomicLong();
  private final AtomicLong hits = new AtomicLong();
  private final ThreadPoolExecutor fills;
  private final ExecutorService drops =
      Executors.newSingleThreadExecutor(daemon("lake-snapshot-cache-drop"));
  private volatile boolean closed;

  SnapshotCache(
      DuckDBConnection database,
      BufferAllocator allocator,
      CacheBudget budget,
      SnapshotCacheSettings settings) {
    this.budget = requireNonNull(budget, "budget is null");
    this.settings = requireNonNull(settings, "settings is null");
    this.copier = new SnapshotCopier(database, allocator, this::reserve);
    this.tables =
        Caffeine.newBuilder()
            .maximumWeight(Math.max(1, budget.share() >> 10))
            .<Key, Table>weigher((k, t) -> (int) Math.min(Integer.MAX_VALUE, (t.bytes >> 10) + 1))
            .expireAfterAccess(settings.idle())
            .ticker(settings.ticker())
            // idle copies go even when no query touches the cache
            .scheduler(Scheduler.systemScheduler())
            // evictions happen while a copy reads (reserve runs on DuckDB's scan threads, where a
            // nested DROP could deadlock), so removals and drops run on their own thread
            .executor(drops)
            .<Key, Table>removalListener(
                (k, t, cause) -> {
                  if (t != null) {
                    t.release();
                  }
                })
            .build();
    this.uses =
        Caffeine.newBuilder()
            .maximumSize(4096)
            .expireAfterAccess(settings.idle())
            .ticker(settings.ticker())
            .<Snapshot, AtomicInteger>build();
    this.fills =
        new ThreadPoolExecutor(
            1,
            1,
            0,
            TimeUnit.SECONDS,
            new LinkedBlockingQueue<>(64),
            daemon("lake-snapshot-cache-fill"));
    budget.join(this);
  }

  private static java.util.concurrent.ThreadFactory daemon(String name) {
    return r -> {
      Thread t = new Thread(r, name);
      t.setDaemon(true);
      return t;
    };
  }

  /** One table of a query: the columns it reads of {@code snapshot}, and how to copy it. */
  record Use(Snapshot snapshot, List<String> columns, SnapshotProbe probe, Source source) {}

  /**
   * Leased copies for every use (in order), or empty if any of them has none (or may not have one:
   * {@link SnapshotProbe#cacheable}): then the query reads all its tables uncached, because a plan
   * mixing copies (with statistics) and Arrow streams (estimated at ~1 row) can be far slower than
   * either. A miss never waits: it counts a use of the snapshot and may queue a background copy.
   * Throws {@code SNAPSHOT_GONE} if a version is gone. The caller releases the tables.
   */
  Optional<List<Table>> acquireAll(List<Use> uses) {
    List<Table> leased = new ArrayList<>();
    boolean complete = true;
    try {
      for (Use use : uses) {
        Optional<Table> table = acquire(use);
        if (table.isPresent()) {
          leased.add(table.get());
        } else {
          complete = false;
        }
      }
    } catch (RuntimeException e) {
      leased.forEach(Table::release);
      throw e;
    }
    if (!complete) {
      leased.forEach(Table::release);
      return Optional.empty();
    }
    hits.addAndGet(leased.size());
    return Optional.of(leased);
  }

  private Optional<Table> acquire(Use use) {
    Snapshot snapshot = use.snapshot();
    try {
      use.probe().checkRetained(use.source().ref(), snapshot);
    } catch (LakeException e) {
      if (e.code() == ErrorCode.SNAPSHOT_GONE) {
        evict(snapshot);
      }
      throw e;
    }
    if (!use.probe().cacheable(use.source().ref(), snapshot)) {
      return Optional.empty(); // never copied: the query reads uncached
    }
    Key key = new Key(snapshot, List.copyOf(use.columns()));
    for (int attempt = 0; attempt < 2; attempt++) {
      Table table = covering(key);
      if (table == null) {
        break;
      }
      if (table.tryRetain()) {
        return Optional.of(table);
      }
      // evicted between lookup and lease: look again
    }
    if (mayFit(key)) {
      noteMiss(key, use.source());
    }
    return Optional.empty();
  }

  /** Counts an uncached read; from the {@code fillAfterUses}-th on, queues one background copy. */
  private void noteMiss(Key key, Source source) {
    Snapshot snapshot = key.snapshot();
    int n = uses.get(snapshot, s -> new AtomicInteger()).incrementAndGet();
    if (n < settings.fillAfterUses() || closed || !pending.add(snapshot)) {
      return;
    }
    // the union with the columns already cached for this snapshot, so one copy per snapshot
    // converges to its hot columns (the narrower copies then go)
    Key wide = CopyKeys.widen(key, source.schema(), tables.asMap().keySet());
    Key target = mayFit(wide) ? wide : key;
    try {
      fills.execute(() -> fill(key, target, source));
    } catch (RejectedExecutionException e) {
      pending.remove(snapshot); // queue full or closing: read uncached, try again later
    }
  }

  private void fill(Key key, Key target, Source source) {
    try {
      if (closed || covering(target) != null) {
        return; // a copy made meanwhile already serves it
      }
      Key made = target;
      long room = room(key.snapshot());
      Table table = room > 0 ? copier.copy(made, source, this, room) : null;
      if (table == null && !target.equals(key) && !closed) {
        made = key; // the union is too large: the requested columns alone
        table = room > 0 ? copier.copy(made, source, this, room) : null;
      }
      if (table == null) {
        tooLarge.put(made, room);
        return;
      }
      if (closed) {
        table.release();
        return;
      }
      Key kept = made;
      tables.put(kept, table);
      // the narrower copies of the snapshot go (leases keep them until their queries end)
      tables.asMap().keySet().removeIf(k -> CopyKeys.coveredBy(k, kept));
      budget.rebalance(); // the other pools' bounds shrink by what this one now holds
    } catch (RuntimeException e) {
      if (e instanceof LakeException l && l.code() == ErrorCode.SNAPSHOT_GONE) {
        evict(key.snapshot());
      }
      // otherwise the snapshot is read uncached; a later miss tries again
    } finally {
      pending.remove(key.snapshot());
    }
  }

  /** Reserves (or, negative, returns) bytes of a copy in flight; every pool's bound follows. */
  private void reserve(long bytes) {
    reserved.addAndGet(bytes);
    budget.rebalance();
  }

  /**
   * Bounds the finished copies to {@code bytes}, evicting at once what exceeds it ({@link
   * CacheBudget}).
   */
  void bound(long bytes) {
    tables.policy().eviction().ifPresent(e -> e.setMaximum(Math.max(1, bytes >> 10)));
  }

  /** Bytes held: finished copies (as weighed, KiB-rounded) plus copies in flight. */
  long heldBytes() {
    long finished =
        tables.policy().eviction().map(e -> e.weightedSize().orElse(0) << 10).orElse(0L);
    return finished + reserved.get();
  }

  /** False if a copy of {@code key} stopped for lack of room and there is no more room now. */
  private boolean mayFit(Key key) {
    Long stoppedAt = tooLarge.getIfPresent(key);
    return stoppedAt == null || room(key.snapshot()) > stoppedAt;
  }

  /**
   * Room for a new copy of {@code snapshot}: the pool's room less its copies of that snapshot (a
   * wider copy replaces them only once made, so both must fit: at SF 1 a widened lineitem copy
   * evicted a 254 MiB one and then stopped, again and again). Other snapshots' copies may go.
   */
  private long room(Snapshot snapshot) {
    return budget.room(this) - CopyKeys.bytesOf(snapshot, tables.asMap());
  }

  /** The exact copy, or the narrowest one of the same snapshot with a superset of the columns. */
  private Table covering(Key key) {
    Table exact = tables.getIfPresent(key);
    if (exact != null) {
      return exact;
    }
    Key best = CopyKeys.narrowestCovering(key, tables.asMap().keySet());
    return best == null ? null : tables.getIfPresent(best); // records the access
  }

  /** Drops every cached copy of {@code snapshot} (its version is gone). */
  void evict(Snapshot snapshot) {
    tables.asMap().keySet().removeIf(k -> k.snapshot().equals(snapshot));
  }

  /** Bytes currently cached (finished copies). */
  long cachedBytes() {
    tables.cleanUp();
    return tables.asMap().values().stream().mapToLong(Table::bytes).sum();
  }

  /** The keys of the copies held now; for tests. */
  Set<Key> entriesForTest() {
    tables.cleanUp();
    return Set.copyOf(tables.asMap().keySet());
  }

  /** Runs pending idle expiry now; for tests with a manual ticker. */
  void cleanUpForTest() {
    tables.cleanUp();
  }

  /** Waits until every copy queued so far has finished and its evictions were dropped; tests. */
  void awaitFillsForTest(Duration timeout)
      throws InterruptedException, ExecutionException, TimeoutException {
    fills.submit(() -> {}).get(timeout.toMillis(), TimeUnit.MILLISECONDS);
    tables.cleanUp();
    drops.submit(() -> {}).get(timeout.toMillis(), TimeUnit.MILLISECONDS);
  }

  /** Snapshots whose background copy is queued or running now. */
  int pendingCopies() {
    return pending.size();
  }

  /** How many copies were materialized since the engine started. */
  long materializations() {
    return copier.materializations();
  }

  /** How many table reads were answered from a copy since the engine started. */
  long hits() {
    return hits.get();
  }

  /** Bytes reserved by copies in flight. */
  long reservedBytes() {
    return reserved.get();
  }

  /** Stops a copy in flight (waiting for it, so the database may close next), drops every copy. */
  @Override
  public void close() {
    closed = true;
    fills.shutdownNow();
    copier.cancel();
    try {
      if (!fills.awaitTermination(30, TimeUnit.SECONDS)) {
        throw new IllegalStateException("A snapshot cache copy did not stop within 30 s");
      }
      tables.invalidateAll();
      tables.cleanUp();
      budget.leave(this);
      drops.shutdown();
      if (!drops.awaitTermination(30, TimeUnit.SECONDS)) {
        throw new IllegalStateException("Snapshot cache copies were not dropped within 30 s");
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
