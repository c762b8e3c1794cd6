package dev.lake.engine;

import com.github.benmanes.caffeine.cache.AsyncCache;
import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import dev.lake.core.ErrorCode;
import dev.lake.core.LakeException;
import dev.lake.core.ScanRequest;
import dev.lake.core.Snapshot;
import dev.lake.core.SnapshotProbe;
import dev.lake.core.TableReader;
import dev.lake.core.TableRef;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.ipc.ArrowReader;
import org.duckdb.DuckDBConnection;

/**
 * Table snapshots materialized in the engine's DuckDB database (schema {@code lake_cache}), keyed
 * by snapshot identity and column set. Snapshots are immutable, so a copy stays exact for as long
 * as the version exists: every use first asks the reader's {@link SnapshotProbe}, and a gone
 * version evicts its copies and throws {@code SNAPSHOT_GONE} like the uncached read.
 *
 * <p>Bounded by Arrow bytes read ({@code maxBytes}, LRU-ish eviction by Caffeine); a snapshot whose
 * projection alone exceeds the bound stops materializing early and is read uncached. The first use
 * materializes in the calling thread while concurrent users of the same key wait for it (single
 * flight). A query holds a lease on the table it reads; an evicted table is dropped when its last
 * lease ends.
 */
final class SnapshotCache implements AutoCloseable {
  static final String SCHEMA = "lake_cache";

  /** A cached copy: exactly {@code columns} (table order) of {@code snapshot}. */
  record Key(Snapshot snapshot, List<String> columns) {}

  /** One materialized table; counted references (the cache holds one). */
  final class Table {
    private final String name;
    private final long bytes;
    private final AtomicInteger refs = new AtomicInteger(1);

    private Table(String name, long bytes) {
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
        drop(name);
      }
    }
  }

  private final DuckDBConnection database;
  private final BufferAllocator allocator;
  private final long maxBytes;
  private final AtomicLong ids = new AtomicLong();
  private final AtomicLong materializations = new AtomicLong();
  private final AsyncCache<Key, Table> tables;
  private final Cache<Key, Boolean> tooLarge =
      Caffeine.newBuilder().maximumSize(1024).<Key, Boolean>build();

  SnapshotCache(DuckDBConnection database, BufferAllocator allocator, long maxBytes) {
    this.database = database;
    this.allocator = allocator;
    this.maxBytes = maxBytes;
    this.tables =
        Caffeine.newBuilder()
            .maximumWeight(Math.max(1, maxBytes >> 10))
            .<Key, Table>weigher((k, t) -> (int) Math.min(Integer.MAX_VALUE, (t.bytes >> 10) + 1))
            .executor(Runnable::run)
            .<Key, Table>removalListener(
                (k, t, cause) -> {
                  if (t != null) {
                    t.release();
                  }
                })
            .buildAsync();
  }

  /**
   * A leased copy holding at least {@code columns} of {@code snapshot} (whose table has {@code
   * tableColumns}, in order), materializing it on first use; empty if it cannot be cached (too
   * large, or materialization failed). Throws {@code SNAPSHOT_GONE} if the version is gone. The
   * caller releases the table.
   */
  Optional<Table> acquire(
      TableRef ref,
      Snapshot snapshot,
      List<String> columns,
      List<String> tableColumns,
      TableReader reader,
      SnapshotProbe probe,
      int batchSize,
      int parallelism) {
    try {
      probe.checkRetained(ref, snapshot);
    } catch (LakeException e) {
      if (e.code() == ErrorCode.SNAPSHOT_GONE) {
        evict(snapshot);
      }
      throw e;
    }
    Key key = new Key(snapshot, List.copyOf(columns));
    if (tooLarge.getIfPresent(key) != null) {
      return Optional.empty();
    }
    for (int attempt = 0; attempt < 3; attempt++) {
      CompletableFuture<Table> future = covering(key);
      if (future == null) {
        // a miss: materialize the union with the columns already cached for this snapshot, so
        // one copy per snapshot converges to its hot columns (the narrower copies then go)
        Key target = widen(key, tableColumns);
        if (tooLarge.getIfPresent(target) != null) {
          target = key;
        }
        CompletableFuture<Table> mine = new CompletableFuture<>();
        future = tables.asMap().putIfAbsent(target, mine);
        if (future == null) {
          // this caller materializes; a null result (not cacheable) is dropped by the cache
          // without a logged failure, and waiters then read uncached
          try {
            mine.complete(materialize(ref, target, reader, batchSize, parallelism));
          } catch (RuntimeException e) {
            mine.complete(null);
            if (e instanceof LakeException l && l.code() == ErrorCode.SNAPSHOT_GONE) {
              throw l;
            }
            if (!target.equals(key) && tooLarge.getIfPresent(target) != null) {
              continue; // the union is too large: try the requested columns alone
            }
            return Optional.empty();
          }
          future = mine;
          dropNarrower(target);
        }
      }
      Table table = future.join();
      if (table == null) {
        return Optional.empty(); // another caller found it not cacheable just now
      }
      if (table.tryRetain()) {
        return Optional.of(table);
      }
      // evicted between lookup and lease: look again
    }
    return Optional.empty();
  }

  /** {@code key} with the columns of every cached copy of its snapshot, in table order. */
  private Key widen(Key key, List<String> tableColumns) {
    Set<String> wanted = new HashSet<>(key.columns());
    for (Key k : tables.asMap().keySet()) {
      if (k.snapshot().equals(key.snapshot())) {
        wanted.addAll(k.columns());
      }
    }
    if (wanted.size() == key.columns().size()) {
      return key;
    }
    return new Key(key.snapshot(), tableColumns.stream().filter(wanted::contains).toList());
  }

  /** Evicts the copies of {@code wide}'s snapshot that it covers (leases keep them until done). */
  private void dropNarrower(Key wide) {
    tables
        .asMap()
        .keySet()
        .removeIf(
            k ->
                !k.equals(wide)
                    && k.snapshot().equals(wide.snapshot())
                    && wide.columns().containsAll(k.columns()));
  }

  /** The exact entry, or a completed one of the same snapshot with a superset of the columns. */
  private CompletableFuture<Table> covering(Key key) {
    Map<Key, CompletableFuture<Table>> map = tables.asMap();
    CompletableFuture<Table> exact = map.get(key);
    if (exact != null) {
      return exact;
    }
    Key best = null;
    for (Map.Entry<Key, CompletableFuture<Table>> e : map.entrySet()) {
      Key k = e.getKey();
      CompletableFuture<Table> f = e.getValue();
      if (k.snapshot().equals(key.snapshot())
          && k.columns().containsAll(key.columns())
          && f.isDone()
          && !f.isCompletedExceptionally()
          && f.getNow(null) != null
          && (best == null || k.columns().size() < best.columns().size())) {
        best = k;
      }
    }
    return best == null ? null : map.get(best); // get() records the access for eviction
  }

  private Table materialize(
      TableRef ref, Key key, TableReader reader, int batchSize, int parallelism) {
    String name = SCHEMA + ".lake_c" + ids.incrementAndGet();
    ScanRequest request = new ScanRequest(key.columns(), List.of(), batchSize, parallelism);
    BufferAllocator child = allocator.newChildAllocator("cache-" + name, 0, Long.MAX_VALUE);
    AtomicLong bytes = new AtomicLong();
    try {
      List<ArrowReader> counted = new ArrayList<>();
      for (ArrowReader r : reader.scan(ref, key.snapshot(), request, child)) {
        counted.add(new CountingReader(child, r, bytes, maxBytes));
      }
      DuckDBConnection connection;
      try {
        connection = (DuckDBConnection) database.duplicate();
      } catch (SQLException e) {
        counted.forEach(DuckDbExecution::closeQuietly);
        throw new LakeException(ErrorCode.INTERNAL, "Cannot open a cache connection", e);
      }
      QueryInputs inputs = null;
      try {
        inputs =
            new QueryInputs(
                connection, "lake_m0", Map.of(ref, counted), java.util.Set.of(), child, List.of());
        try (Statement st = connection.createStatement()) {
          st.execute("CREATE TABLE " + name + " AS SELECT * FROM " + inputs.views().get(ref));
        }
      } catch (SQLException e) {
        drop(name);
        if (bytes.get() > maxBytes) {
          tooLarge.put(key, Boolean.TRUE);
        }
        throw new LakeException(ErrorCode.QUERY_FAILED, "Cannot cache the snapshot", e);
      } finally {
        // the connection first: DuckDB holds exported schemas until it closes
        DuckDbExecution.closeQuietly(connection);
        if (inputs != null) {
          inputs.close();
        }
      }
    } finally {
      DuckDbExecution.closeAllocator(child);
    }
    materializations.incrementAndGet();
    return new Table(name, bytes.get());
  }

  /** Drops every cached copy of {@code snapshot} (its version is gone). */
  void evict(Snapshot snapshot) {
    tables.asMap().keySet().removeIf(k -> k.snapshot().equals(snapshot));
  }

  /** Bytes currently cached (completed copies). */
  long cachedBytes() {
    tables.synchronous().cleanUp();
    long total = 0;
    for (CompletableFuture<Table> f : tables.asMap().values()) {
      Table t = f.isDone() && !f.isCompletedExceptionally() ? f.getNow(null) : null;
      if (t != null) {
        total += t.bytes();
      }
    }
    return total;
  }

  /** The keys of the copies held now; for tests. */
  Set<Key> entriesForTest() {
    tables.synchronous().cleanUp();
    return Set.copyOf(tables.asMap().keySet());
  }

  /** How many copies were materialized since the engine started. */
  long materializations() {
    return materializations.get();
  }

  private void drop(String name) {
    try (java.sql.Connection c = database.duplicate();
        Statement st = c.createStatement()) {
      st.execute("DROP TABLE IF EXISTS " + name);
    } catch (SQLException e) {
      // the database is closing; its memory goes with it
    }
  }

  @Override
  public void close() {
    tables.synchronous().invalidateAll();
  }
}
