package dev.lake.core;

import static java.util.Objects.requireNonNull;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The configured table resolvers by catalog name. Authorizes before resolving: a table the
 * principal may not read gets exactly the error of a table that does not exist.
 */
public final class Catalogs {
  private final Map<String, TableResolver> resolvers;

  public Catalogs(List<TableResolver> resolvers) {
    Map<String, TableResolver> map = new LinkedHashMap<>();
    for (TableResolver r : requireNonNull(resolvers, "resolvers is null")) {
      if (map.put(r.catalog(), r) != null) {
        throw new IllegalArgumentException("two resolvers for catalog " + r.catalog());
      }
    }
    this.resolvers = Map.copyOf(map);
  }

  /** Authorizes and resolves every table of {@code query} to its current exact snapshot. */
  public SnapshotSet resolveAll(Principal principal, AdmittedQuery query) {
    requireNonNull(principal, "principal is null");
    for (TableRef ref : query.tables()) {
      authorize(principal, ref);
    }
    Map<TableRef, Snapshot> snapshots = new LinkedHashMap<>();
    for (TableRef ref : query.tables()) {
      snapshots.put(ref, resolver(ref).resolve(ref));
    }
    return new SnapshotSet(snapshots);
  }

  /**
   * Re-checks, at execution time, that the principal still may read every sealed table (all of
   * them, before any snapshot check) and that every snapshot still denotes the same table; never
   * re-resolves to a newer snapshot. Each catalog checks its tables together ({@link
   * TableResolver#verifyAll}: Iceberg's catalog round trips run concurrently).
   */
  public void verifyAll(Principal principal, SnapshotSet sealed) {
    byCatalog(principal, sealed).forEach(TableResolver::verifyAll);
  }

  /**
   * {@link #verifyAll} for a caller that executes while the catalogs' round trips run: the
   * principal's grants are checked now (a table it may not read throws here, before anything runs),
   * each catalog's snapshot checks are started ({@link TableResolver#startVerifyAll}). The caller
   * must {@link Verification#await} the result before it sends any result byte, and report its
   * failure rather than the execution's: the statement may have run over a snapshot that is no
   * longer retained.
   */
  public Verification startVerifyAll(Principal principal, SnapshotSet sealed) {
    Verification all = Verification.passed();
    for (Map.Entry<TableResolver, Map<TableRef, Snapshot>> e :
        byCatalog(principal, sealed).entrySet()) {
      all = all.and(e.getKey().startVerifyAll(e.getValue()));
    }
    return all;
  }

  /** Authorizes every sealed table (all of them first), then groups them by catalog, in order. */
  private Map<TableResolver, Map<TableRef, Snapshot>> byCatalog(
      Principal principal, SnapshotSet sealed) {
    requireNonNull(principal, "principal is null");
    Map<TableResolver, Map<TableRef, Snapshot>> byCatalog = new LinkedHashMap<>();
    sealed
        .snapshots()
        .forEach(
            (ref, snapshot) -> {
              authorize(principal, ref);
              byCatalog
                  .computeIfAbsent(resolver(ref), r -> new LinkedHashMap<>())
                  .put(ref, snapshot);
            });
    return byCatalog;
  }

  /** Tables the principal may see, across all catalogs, for metadata listings. */
  public List<TableRef> visibleTables(Principal principal) {
    List<TableRef> out = new ArrayList<>();
    for (TableResolver r : resolvers.values()) {
      for (TableRef ref : r.listTables()) {
        if (principal.mayRead(ref)) {
          out.add(ref);
        }
      }
    }
    out.sort(null);
    return out;
  }

  public List<String> catalogNames() {
    return List.copyOf(resolvers.keySet());
  }

  private static void authorize(Principal principal, TableRef ref) {
    if (!principal.mayRead(ref)) {
      throw LakeException.tableNotFound(ref);
    }
  }

  private TableResolver resolver(TableRef ref) {
    TableResolver r = resolvers.get(ref.catalog());
    if (r == null) {
      throw LakeException.tableNotFound(ref);
    }
    return r;
  }
}
