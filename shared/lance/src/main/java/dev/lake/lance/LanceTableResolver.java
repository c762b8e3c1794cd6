package dev.lake.lance;

import static java.util.Objects.requireNonNull;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import dev.lake.core.ErrorCode;
import dev.lake.core.LakeException;
import dev.lake.core.Registry;
import dev.lake.core.Snapshot;
import dev.lake.core.TableRef;
import dev.lake.core.TableResolver;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.apache.arrow.memory.BufferAllocator;

/**
 * Catalog {@code lake}: registry entry of format {@code lance} → current {@link LanceSnapshot}
 * (location, incarnation, latest version; an entry of another format fails closed as {@code
 * UNSUPPORTED} and is not listed), cached for {@code freshness} in a bounded cache. {@link #verify}
 * reads the registry itself (not the cache) and never looks at the current version.
 */
public final class LanceTableResolver implements TableResolver {
  /** Most table resolutions held in the cache. */
  public static final int MAX_CACHED = 10_000;

  private final Registry registry;
  private final BufferAllocator allocator;
  private final Map<String, String> storageOptions;
  private final Cache<TableRef, LanceSnapshot> current;

  /** A resolver of local datasets (no object-store settings). */
  public LanceTableResolver(Registry registry, BufferAllocator allocator, Duration freshness) {
    this(registry, allocator, freshness, Map.of());
  }

  /** With the deployment's Lance object-store settings for {@code s3://} locations. */
  public LanceTableResolver(
      Registry registry,
      BufferAllocator allocator,
      Duration freshness,
      Map<String, String> storageOptions) {
    this.registry = requireNonNull(registry, "registry is null");
    this.allocator = requireNonNull(allocator, "allocator is null");
    this.storageOptions = Map.copyOf(requireNonNull(storageOptions, "storageOptions is null"));
    requireNonNull(freshness, "freshness is null");
    if (freshness.isNegative()) {
      throw new IllegalArgumentException("freshness must not be negative: " + freshness);
    }
    this.current =
        Caffeine.newBuilder().maximumSize(MAX_CACHED).expireAfterWrite(freshness).build();
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

  private LanceSnapshot load(TableRef ref) {
    Registry.Entry entry = registry.find(ref).orElseThrow(() -> LakeException.tableNotFound(ref));
    String location = LanceFormat.location(entry);
    long version;
    try {
      version = LanceDatasets.latestVersion(location, allocator, storageOptions);
    } catch (RuntimeException e) {
      throw new LakeException(
          ErrorCode.EXTERNAL_UNAVAILABLE, "Table " + ref + " is registered but cannot be read", e);
    }
    return new LanceSnapshot(location, entry.incarnation(), version);
  }

  @Override
  public List<TableRef> listTables() {
    // tables of formats this catalog does not read are not offered
    return registry.list().stream()
        .filter(e -> e.format().equals(LanceFormat.TAG))
        .map(Registry.Entry::ref)
        .sorted()
        .toList();
  }

  @Override
  public void verify(TableRef ref, Snapshot sealed) {
    if (!(sealed instanceof LanceSnapshot)) {
      throw new LakeException(ErrorCode.INTERNAL, "Table " + ref + " was not sealed as Lance");
    }
    LanceSnapshot s = (LanceSnapshot) sealed;
    boolean same =
        registry
            .find(ref)
            .map(
                e ->
                    e.format().equals(LanceFormat.TAG)
                        && e.incarnation().equals(s.incarnation())
                        && e.location().equals(s.location()))
            .orElse(false);
    if (!same) {
      current.invalidate(ref);
      throw new LakeException(
          ErrorCode.SNAPSHOT_GONE,
          "version "
              + s.version()
              + " of "
              + ref
              + " is no longer available: the table was"
              + " replaced or removed");
    }
  }
}
