package dev.lake.iceberg;

import com.github.benmanes.caffeine.cache.Caffeine;
import com.github.benmanes.caffeine.cache.LoadingCache;
import com.github.benmanes.caffeine.cache.Ticker;
import dev.lake.core.TableRef;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;
import org.apache.iceberg.Table;

/**
 * Current resolutions by table: at most {@code cacheMaxKeys} entries, served without asking the
 * catalog while younger than {@code cacheFresh}, served stale while ONE background refresh runs
 * until {@code cacheStale}, then loaded again synchronously. Caffeine gives per-key single-flight:
 * concurrent callers of a cold key share one load. Missing tables are cached too (as empty), so a
 * flood of lookups of a missing name costs one catalog request per refresh period.
 */
final class ResolutionCache {
  /** A loaded table and the identity lake seals for it. */
  record Loaded(Table table, IcebergSnapshot snapshot) {}

  private final LoadingCache<TableRef, Optional<Loaded>> cache;

  ResolutionCache(
      IcebergConfig config, Function<TableRef, Optional<Loaded>> loader, Ticker ticker) {
    this.cache =
        Caffeine.newBuilder()
            .maximumSize(config.cacheMaxKeys())
            .refreshAfterWrite(config.cacheFresh())
            .expireAfterWrite(config.cacheStale())
            .ticker(ticker)
            .build(loader::apply);
  }

  /** The cached or freshly loaded resolution; a load failure propagates as its LakeException. */
  Optional<Loaded> get(TableRef ref) {
    return cache.get(ref);
  }

  /** The resolution if cached, without loading. */
  Optional<Loaded> peek(TableRef ref) {
    Optional<Loaded> v = cache.getIfPresent(ref);
    return v == null ? Optional.empty() : v;
  }

  /**
   * Records a fresher point-load (empty: the table is missing), so later resolutions and checks do
   * not go back in time.
   */
  void put(TableRef ref, Optional<Loaded> loaded) {
    cache.put(ref, loaded);
  }

  /** Every cached existing table (never loads anything). */
  Map<TableRef, Optional<Loaded>> snapshot() {
    return Map.copyOf(cache.asMap());
  }
}
