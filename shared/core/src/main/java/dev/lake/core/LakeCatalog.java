package dev.lake.core;

import static java.util.Objects.requireNonNull;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Catalog {@code lake}: the tables of lake's {@link Registry}, each handed to the {@link
 * EntryResolver} of the format its entry's tag names. Current resolutions are cached for {@code
 * freshness} in a bounded cache (one registry read per table and window, whatever the format);
 * {@link #verify} reads the registry itself. An entry whose tag no served format owns is not
 * listed, resolving it fails closed ({@code UNSUPPORTED}), and a snapshot sealed under a name now
 * registered as another format (or a new incarnation) no longer verifies ({@code SNAPSHOT_GONE}).
 */
public final class LakeCatalog implements TableResolver {
  /** Most table resolutions held in the cache. */
  public static final int MAX_CACHED = 10_000;

  private final Registry registry;
  private final Map<String, EntryResolver> byTag;
  private final Cache<TableRef, Snapshot> current;

  /** Serves the entries tagged with a key of {@code byTag} through that resolver. */
  public LakeCatalog(Registry registry, Duration freshness, Map<String, EntryResolver> byTag) {
    this.registry = requireNonNull(registry, "registry is null");
    this.byTag = Map.copyOf(requireNonNull(byTag, "byTag is null"));
    requireNonNull(freshness, "freshness is null");
    if (freshness.isNegative()) {
      throw new IllegalArgumentException("freshness must not be negative: " + freshness);
    }
    this.current =
        Caffeine.newBuilder().maximumSize(MAX_CACHED).expireAfterWrite(freshness).build();
  }

  /**
   * The {@code lake} catalog plugin over the formats of {@code byTag}: this resolver, every
   * format's reader, and one owner closing every format's owner.
   */
  public static CatalogPlugin plugin(
      Registry registry, Duration freshness, Map<String, RegisteredTables> byTag) {
    Map<String, EntryResolver> resolvers = new LinkedHashMap<>();
    List<TableReader> readers = new ArrayList<>();
    List<AutoCloseable> owners = new ArrayList<>();
    byTag.forEach(
        (tag, tables) -> {
          resolvers.put(tag, tables.resolver());
          readers.add(tables.reader());
          tables.owner().ifPresent(owners::add);
        });
    AutoCloseable owner = () -> closeAll(owners);
    return new CatalogPlugin(
        new LakeCatalog(registry, freshness, resolvers), readers, Optional.of(owner));
  }

  /** Closes every owner, reporting the first failure with the others suppressed. */
  static void closeAll(List<AutoCloseable> owners) throws Exception {
    Exception failure = null;
    for (AutoCloseable o : owners) {
      try {
        o.close();
      } catch (Exception e) {
        if (failure == null) {
          failure = e;
        } else {
          failure.addSuppressed(e);
        }
      }
    }
    if (failure != null) {
      throw failure;
    }
  }

  @Override
  public String catalog() {
    return TableRef.LAKE;
  }

  @Override
  public Snapshot resolve(TableRef ref) {
    requireNonNull(ref, "ref is null");
    if (!ref.catalog().equals(TableRef.LAKE)) {
      throw LakeException.tableNotFound(ref);
    }
    return current.get(ref, this::load);
  }

  private Snapshot load(TableRef ref) {
    Registry.Entry entry = registry.find(ref).orElseThrow(() -> LakeException.tableNotFound(ref));
    EntryResolver resolver = byTag.get(entry.format());
    if (resolver == null) {
      throw new LakeException(
          ErrorCode.UNSUPPORTED,
          "Table "
              + ref
              + " is registered as format '"
              + entry.format()
              + "', which this server does not read");
    }
    return resolver.resolve(entry);
  }

  @Override
  public List<TableRef> listTables() {
    // tables of formats this catalog does not serve are not offered
    return registry.list().stream()
        .filter(e -> byTag.containsKey(e.format()))
        .map(Registry.Entry::ref)
        .sorted()
        .toList();
  }

  @Override
  public void verify(TableRef ref, Snapshot sealed) {
    requireNonNull(sealed, "sealed is null");
    boolean same =
        registry
            .find(ref)
            .map(
                e -> {
                  EntryResolver resolver = byTag.get(e.format());
                  return resolver != null && resolver.denotes(e, sealed);
                })
            .orElse(false);
    if (!same) {
      current.invalidate(ref);
      throw new LakeException(
          ErrorCode.SNAPSHOT_GONE,
          sealed.describe()
              + " of "
              + ref
              + " is no longer available: the table was replaced or removed");
    }
  }
}
