package dev.lake.engine;

import dev.lake.core.AdmittedQuery;
import dev.lake.core.Snapshot;
import dev.lake.core.SnapshotProbe;
import dev.lake.core.SnapshotSet;
import dev.lake.core.TableReader;
import dev.lake.core.TableRef;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Function;

/** How a query's tables are matched to snapshot-cache copies. */
final class CachedInputs {
  private CachedInputs() {}

  /**
   * Leases copies of every table whose reader can probe its snapshots (Lance, Iceberg), all or none
   * (see {@link SnapshotCache#acquireAll}); adds them to {@code leases} and {@code names} (table →
   * copy).
   */
  static void acquire(
      SnapshotCache cache,
      AdmittedQuery query,
      SnapshotSet snapshots,
      QueryPlan plan,
      Function<Snapshot, TableReader> readers,
      EngineConfig config,
      List<AutoCloseable> leases,
      Map<TableRef, String> names,
      AtomicLong scanned) {
    List<TableRef> refs = new ArrayList<>();
    List<SnapshotCache.Use> uses = new ArrayList<>();
    for (TableRef ref : query.tables()) {
      Snapshot snapshot = snapshots.resolve(ref);
      TableReader reader = readers.apply(snapshot);
      if (reader instanceof SnapshotProbe probe) {
        refs.add(ref);
        uses.add(
            new SnapshotCache.Use(
                snapshot,
                plan.columns(ref),
                probe,
                new SnapshotCache.Source(
                    ref, reader, plan.schema(ref), config.batchSize(), config.scanParallelism())));
      }
    }
    if (uses.isEmpty()) {
      return;
    }
    Optional<List<SnapshotCache.Table>> tables = cache.acquireAll(uses);
    if (tables.isPresent()) {
      for (int i = 0; i < refs.size(); i++) {
        SnapshotCache.Table table = tables.get().get(i);
        leases.add(table::release);
        names.put(refs.get(i), table.name());
        scanned.addAndGet(table.bytes());
      }
    }
  }
}
