package dev.lake.iceberg;

import static java.util.Objects.requireNonNull;

import dev.lake.core.ErrorCode;
import dev.lake.core.LakeException;
import dev.lake.core.Snapshot;
import dev.lake.core.TableRef;
import dev.lake.core.TableResolver;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.TreeSet;
import org.apache.iceberg.Table;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The {@code iceberg} catalog. Admission here is the deployment allowlist: a table outside it gets
 * exactly the error of a missing table (the principal's grant is checked before, by core {@code
 * Catalogs}). Current resolutions go through the {@link ResolutionCache}; {@link #verify} and reads
 * of a sealed snapshot point-load the table from the catalog and never fall forward.
 */
final class IcebergResolver implements TableResolver {
  private static final Logger LOG = LoggerFactory.getLogger(IcebergResolver.class);

  private final IcebergConfig config;
  private final CatalogClient client;
  private final ResolutionCache cache;

  IcebergResolver(IcebergConfig config, CatalogClient client, ResolutionCache cache) {
    this.config = requireNonNull(config, "config is null");
    this.client = requireNonNull(client, "client is null");
    this.cache = requireNonNull(cache, "cache is null");
  }

  /** The cache loader: one REST loadTable. */
  static Optional<ResolutionCache.Loaded> load(CatalogClient client, TableRef ref) {
    return client.load(ref).map(t -> new ResolutionCache.Loaded(t, client.snapshotOf(t)));
  }

  @Override
  public String catalog() {
    return IcebergFormat.CATALOG;
  }

  @Override
  public Snapshot resolve(TableRef ref) {
    return resolveLoaded(ref).snapshot();
  }

  ResolutionCache.Loaded resolveLoaded(TableRef ref) {
    admit(ref);
    return cache.get(ref).orElseThrow(() -> LakeException.tableNotFound(ref));
  }

  /**
   * Explicitly allowlisted tables that exist (each a cached point lookup, never an enumeration),
   * plus tables of allowlisted namespaces that some query already resolved and that are still
   * cached. A table in an allowlisted namespace that nobody has queried yet is not listed.
   */
  @Override
  public List<TableRef> listTables() {
    TreeSet<TableRef> out = new TreeSet<>();
    for (TableRef ref : config.allowlist().tables()) {
      try {
        cache.get(ref).ifPresent(l -> out.add(ref));
      } catch (LakeException e) {
        LOG.warn("listing {} skipped: {}", ref, e.getMessage());
      }
    }
    cache
        .snapshot()
        .forEach(
            (ref, loaded) -> {
              if (loaded.isPresent() && config.allowlist().allows(ref)) {
                out.add(ref);
              }
            });
    return new ArrayList<>(out);
  }

  @Override
  public void verify(TableRef ref, Snapshot sealed) {
    pointLoad(ref, sealed);
  }

  /**
   * Loads {@code ref} from the catalog (not the cache) and checks that it is still the sealed
   * incarnation and still retains the sealed snapshot; otherwise {@link ErrorCode#SNAPSHOT_GONE}.
   */
  Table pointLoad(TableRef ref, Snapshot sealed) {
    IcebergSnapshot pinned = icebergSnapshot(ref, sealed);
    admit(ref);
    Optional<ResolutionCache.Loaded> loaded = load(client, ref);
    if (loaded.isEmpty()) {
      throw new LakeException(ErrorCode.SNAPSHOT_GONE, "table " + ref + " was dropped");
    }
    Table table = loaded.get().table();
    checkRetained(ref, pinned, table);
    cache.put(ref, loaded.get());
    return table;
  }

  /**
   * The cached table if it holds the sealed snapshot of the sealed incarnation, else a point-load.
   */
  Table tableFor(TableRef ref, Snapshot sealed) {
    IcebergSnapshot pinned = icebergSnapshot(ref, sealed);
    Optional<ResolutionCache.Loaded> cached =
        config.allowlist().allows(ref) ? cache.peek(ref) : Optional.empty();
    if (cached.isPresent()) {
      Table t = cached.get().table();
      if (t.uuid().toString().equals(pinned.tableUuid())
          && (pinned.snapshotId() == CatalogClient.NO_SNAPSHOT
              || t.snapshot(pinned.snapshotId()) != null)) {
        return t;
      }
    }
    return pointLoad(ref, sealed);
  }

  static void checkRetained(TableRef ref, IcebergSnapshot pinned, Table table) {
    if (!table.uuid().toString().equals(pinned.tableUuid())) {
      throw new LakeException(ErrorCode.SNAPSHOT_GONE, "table " + ref + " was replaced");
    }
    if (pinned.snapshotId() != CatalogClient.NO_SNAPSHOT
        && table.snapshot(pinned.snapshotId()) == null) {
      throw gone(ref, pinned);
    }
  }

  static LakeException gone(TableRef ref, IcebergSnapshot pinned) {
    return new LakeException(
        ErrorCode.SNAPSHOT_GONE,
        "snapshot " + pinned.snapshotId() + " of " + ref + " is no longer retained");
  }

  private IcebergSnapshot icebergSnapshot(TableRef ref, Snapshot sealed) {
    requireNonNull(ref, "ref is null");
    requireNonNull(sealed, "sealed is null");
    if (!(sealed instanceof IcebergSnapshot s) || !s.catalogName().equals(client.catalogName())) {
      throw new LakeException(
          ErrorCode.INTERNAL, "Table " + ref + " was sealed with a snapshot of another catalog");
    }
    return s;
  }

  private void admit(TableRef ref) {
    if (!config.allowlist().allows(ref)) {
      throw LakeException.tableNotFound(ref);
    }
  }
}
