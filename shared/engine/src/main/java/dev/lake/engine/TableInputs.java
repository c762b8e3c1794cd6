package dev.lake.engine;

import static java.util.Objects.requireNonNull;

import dev.lake.core.AdmittedQuery;
import dev.lake.core.FileScanSource;
import dev.lake.core.Snapshot;
import dev.lake.core.SnapshotSet;
import dev.lake.core.TableReader;
import dev.lake.core.TableRef;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.ipc.ArrowReader;

/**
 * Where each table of one execution is read from, in this order of preference: its snapshot-cache
 * copy in the pool's database (a {@code SELECT} on a pool with a cache; {@link CachedInputs}), a
 * file scan its reader can express exactly ({@link FileScanSource}: DuckDB reads the files), else
 * Arrow streams of the sealed snapshot, counted as scanned bytes as DuckDB pulls them.
 */
final class TableInputs {
  /**
   * What {@link #gather} found.
   *
   * @param sources the tables read as Arrow streams and as file scans
   * @param cachedNames the tables read from snapshot-cache copies, by the copy's name
   */
  record Gathered(QueryInputs.Sources sources, Map<TableRef, String> cachedNames) {
    Gathered {
      requireNonNull(sources, "sources is null");
      cachedNames = Map.copyOf(requireNonNull(cachedNames, "cachedNames is null"));
    }
  }

  private TableInputs() {}

  /**
   * Each table of {@code query} from its best source; the copies' and file scans' leases are added
   * to {@code leases} (which the caller owns), the copies' and scans' sizes to the scanned bytes.
   * On failure every stream opened so far and every lease in {@code leases} is closed, and {@code
   * child} too, before the exception propagates.
   */
  static Gathered gather(
      AdmittedQuery query,
      SnapshotSet snapshots,
      QueryPlan plan,
      QueryPlans plans,
      SnapshotCache snapshotCache,
      EngineConfig config,
      BufferAllocator child,
      List<AutoCloseable> leases,
      ExecutionAccounting accounting) {
    Map<TableRef, List<ArrowReader>> streams = new LinkedHashMap<>();
    Map<TableRef, String> fileScans = new LinkedHashMap<>();
    Map<TableRef, String> cachedNames = new LinkedHashMap<>();
    try {
      // EXPLAIN reads no data, so it never uses or makes a copy
      if (snapshotCache != null && query.kind() == AdmittedQuery.Kind.SELECT) {
        CachedInputs.acquire(
            snapshotCache,
            query,
            snapshots,
            plan,
            plans::resolveReader,
            config,
            leases,
            cachedNames,
            accounting.scanned());
      }
      for (TableRef ref : query.tables()) {
        if (cachedNames.containsKey(ref)) {
          continue;
        }
        Snapshot snapshot = snapshots.resolve(ref);
        TableReader reader = plans.resolveReader(snapshot);
        if (reader instanceof FileScanSource source) {
          Optional<FileScanSource.FileScan> scan =
              source.fileScan(ref, snapshot, plan.request(ref));
          if (scan.isPresent()) {
            leases.addAll(scan.get().leases());
            fileScans.put(ref, scan.get().sql());
            accounting.scanned().addAndGet(scan.get().bytes());
            continue;
          }
        }
        List<ArrowReader> scans = new ArrayList<>();
        for (ArrowReader r : reader.scan(ref, snapshot, plan.request(ref), child)) {
          scans.add(new CountingReader(child, r, accounting.scanned(), Long.MAX_VALUE));
        }
        streams.put(ref, scans);
      }
    } catch (RuntimeException e) {
      for (List<ArrowReader> list : streams.values()) {
        list.forEach(DuckDbExecution::closeQuietly);
      }
      leases.forEach(DuckDbExecution::closeQuietly);
      child.close();
      throw e;
    }
    return new Gathered(new QueryInputs.Sources(streams, fileScans), cachedNames);
  }
}
