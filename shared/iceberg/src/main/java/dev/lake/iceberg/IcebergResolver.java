package dev.lake.iceberg;

import static java.util.Objects.requireNonNull;

import dev.lake.core.ErrorCode;
import dev.lake.core.LakeException;
import dev.lake.core.Snapshot;
import dev.lake.core.TableRef;
import dev.lake.core.TableResolver;
import dev.lake.core.Verification;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeSet;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;
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
  private final Executor loads;

  /**
   * @param loads runs the point-loads of {@link #verifyAll} beside the caller's own (it should run
   *     a task it cannot take on the submitting thread, never drop it)
   */
  IcebergResolver(
      IcebergConfig config, CatalogClient client, ResolutionCache cache, Executor loads) {
    this.config = requireNonNull(config, "config is null");
    this.client = requireNonNull(client, "client is null");
    this.cache = requireNonNull(cache, "cache is null");
    this.loads = requireNonNull(loads, "loads is null");
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
   * Point-loads every table of a statement at once (one REST loadTable each, as {@link #verify}):
   * the first on the calling thread, the others on {@code loads}, so a DoGet waits for the slowest
   * round trip instead of their sum. Every check still runs and fails closed; the failure of the
   * first table in {@code sealed}'s order is thrown.
   */
  @Override
  public void verifyAll(Map<TableRef, Snapshot> sealed) {
    List<Map.Entry<TableRef, Snapshot>> tables = List.copyOf(sealed.entrySet());
    if (tables.isEmpty()) {
      return;
    }
    Verification others = start(tables.subList(1, tables.size()));
    verify(tables.get(0).getKey(), tables.get(0).getValue()); // the first table's failure first
    others.await();
  }

  /**
   * Every table's point-load on {@code loads} (a load none of its threads can take runs on the
   * calling thread), returning at once: the caller executes the statement meanwhile and awaits the
   * checks before it sends anything.
   */
  @Override
  public Verification startVerifyAll(Map<TableRef, Snapshot> sealed) {
    return start(List.copyOf(sealed.entrySet()));
  }

  private Verification start(List<Map.Entry<TableRef, Snapshot>> tables) {
    List<CompletableFuture<Void>> checks = new ArrayList<>();
    for (Map.Entry<TableRef, Snapshot> e : tables) {
      checks.add(CompletableFuture.runAsync(() -> verify(e.getKey(), e.getValue()), loads));
    }
    return Verification.of(checks);
  }

  /**
   * Loads {@code ref} from the catalog (not the cache) and checks that it is still the sealed
   * incarnation and still retains the sealed snapshot; otherwise {@link ErrorCode#SNAPSHOT_GONE}.
   * What it found is recorded in the resolution cache either way (also a dropped table or a table
   * without the sealed snapshot), so {@link #tableFor} — and with it the engine's check before it
   * serves a snapshot-cache copy — knows from then on what the catalog last said.
   */
  Table pointLoad(TableRef ref, Snapshot sealed) {
    IcebergSnapshot pinned = icebergSnapshot(ref, sealed);
    admit(ref);
    Optional<ResolutionCache.Loaded> loaded = load(client, ref);
    cache.put(ref, loaded);
    if (loaded.isEmpty()) {
      throw new LakeException(ErrorCode.SNAPSHOT_GONE, "table " + ref + " was dropped");
    }
    Table table = loaded.get().table();
    checkRetained(ref, pinned, table);
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
