package dev.lake.engine;

import static java.util.Objects.requireNonNull;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import dev.lake.core.AdmittedQuery;
import dev.lake.core.CacheStats;
import dev.lake.core.ForwardingQueryEngine;
import dev.lake.core.QueryEngine;
import dev.lake.core.QueryExecution;
import dev.lake.core.Snapshot;
import dev.lake.core.SnapshotProbe;
import dev.lake.core.SnapshotSet;
import dev.lake.core.TableReader;
import dev.lake.core.TableRef;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;
import org.apache.arrow.memory.BufferAllocator;

/**
 * Exact result reuse in front of an engine. A deterministic SELECT ({@link Determinism}) over an
 * identical sealed {@link SnapshotSet} with identical bound parameters returns the result stored by
 * an earlier complete run, without executing. Snapshots are immutable, so a stored result is never
 * stale; a snapshot whose reader can tell that it is gone ({@link SnapshotProbe}) is probed before
 * every reuse, so an expired version still fails closed exactly like a fresh run. Results are
 * stored only when their stream ended normally (never after a cancel or failure), only up to {@link
 * ResultReuseConfig#maxEntryBytes} each, and the store is bounded by bytes (Caffeine, W-TinyLFU).
 * EXPLAIN is never reused.
 */
public final class ReusingQueryEngine extends ForwardingQueryEngine {
  /** What identifies a result: the admitted text, the sealed snapshots and the parameters. */
  record Key(String sql, SnapshotSet snapshots, List<Object> parameters) {
    Key {
      requireNonNull(sql, "sql is null");
      requireNonNull(snapshots, "snapshots is null");
      // parameters may hold nulls (SQL NULL), so no List.copyOf
      parameters = Collections.unmodifiableList(new ArrayList<>(parameters));
    }
  }

  private final QueryEngine delegate;
  private final List<TableReader> readers;
  private final ResultReuseConfig config;
  private final Determinism determinism;
  private final Cache<Key, StoredResult> results;
  // false for a tenant's view: the engine it was made from owns the delegate and determinism
  private final boolean owner;

  public ReusingQueryEngine(
      QueryEngine delegate, List<TableReader> readers, ResultReuseConfig config) {
    this(
        delegate,
        readers,
        config,
        config.enabled() ? new Determinism() : null,
        Caffeine.newBuilder()
            .maximumWeight(config.maxBytes())
            .weigher((Key k, StoredResult r) -> r.weight())
            .recordStats()
            .build(),
        true);
  }

  private ReusingQueryEngine(
      QueryEngine delegate,
      List<TableReader> readers,
      ResultReuseConfig config,
      Determinism determinism,
      Cache<Key, StoredResult> results,
      boolean owner) {
    this.delegate = requireNonNull(delegate, "delegate is null");
    this.readers = List.copyOf(requireNonNull(readers, "readers is null"));
    this.config = requireNonNull(config, "config is null");
    this.determinism = determinism;
    this.results = results;
    this.owner = owner;
  }

  /**
   * The tenant's view of the delegate behind the same stored results (a result depends only on the
   * statement, the sealed snapshots and the parameters, and grants were checked before any
   * execution); closing the view closes nothing.
   */
  @Override
  public QueryEngine forTenant(String tenant) {
    return new ReusingQueryEngine(
        delegate.forTenant(tenant), readers, config, determinism, results, false);
  }

  @Override
  protected QueryEngine delegate() {
    return delegate;
  }

  /**
   * A client's explicit deadline ({@code x-lake-timeout-ms}) or the durable worker's reaches the
   * execution when the statement runs; a stored result is replayed from memory whichever deadline
   * the caller named.
   */
  @Override
  public QueryExecution execute(
      AdmittedQuery query,
      List<Object> parameters,
      SnapshotSet snapshots,
      BufferAllocator allocator,
      Duration timeout) {
    return reuseOr(
        query,
        parameters,
        snapshots,
        allocator,
        () -> delegate.execute(query, parameters, snapshots, allocator, timeout));
  }

  @Override
  public QueryExecution execute(
      AdmittedQuery query,
      List<Object> parameters,
      SnapshotSet snapshots,
      BufferAllocator allocator) {
    return reuseOr(
        query,
        parameters,
        snapshots,
        allocator,
        () -> delegate.execute(query, parameters, snapshots, allocator));
  }

  /** The stored result of an identical earlier run, else {@code run}'s execution, recorded. */
  private QueryExecution reuseOr(
      AdmittedQuery query,
      List<Object> parameters,
      SnapshotSet snapshots,
      BufferAllocator allocator,
      Supplier<QueryExecution> run) {
    if (!config.enabled()
        || query.kind() != AdmittedQuery.Kind.SELECT
        || !determinism.deterministic(query.sql())) {
      return run.get();
    }
    Key key = new Key(query.sql(), snapshots, parameters);
    StoredResult stored = results.getIfPresent(key);
    if (stored != null) {
      probe(snapshots);
      return stored.replay(allocator);
    }
    return new RecordingExecution(
        run.get(), allocator, config.maxEntryBytes(), r -> results.put(key, r));
  }

  /** Fails closed like an uncached read when a sealed snapshot is known to be gone. */
  private void probe(SnapshotSet snapshots) {
    for (Map.Entry<TableRef, Snapshot> e : snapshots.snapshots().entrySet()) {
      for (TableReader reader : readers) {
        if (reader instanceof SnapshotProbe probe && reader.supports(e.getValue())) {
          probe.checkRetained(e.getKey(), e.getValue());
        }
      }
    }
  }

  /** Stored results and their total weight, for tests and metrics. */
  long storedBytes() {
    // summed, not Caffeine's weightedSize(): that is updated when the cache's write buffer drains,
    // so right after a store it may still read 0
    return results.asMap().values().stream().mapToLong(StoredResult::weight).sum();
  }

  /** The engine's caches plus this store's hits (lookups that replayed a result) and bytes. */
  @Override
  public CacheStats cacheStats() {
    return delegate.cacheStats().withResults(results.stats().hitCount(), storedBytes());
  }

  @Override
  public void close() {
    if (!owner) {
      return;
    }
    try {
      delegate.close();
    } finally {
      if (determinism != null) {
        determinism.close();
      }
    }
  }
}
