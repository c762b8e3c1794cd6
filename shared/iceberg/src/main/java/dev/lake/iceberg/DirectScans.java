package dev.lake.iceberg;

import static java.util.Objects.requireNonNull;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import dev.lake.core.ErrorCode;
import dev.lake.core.FileScanSource.FileScan;
import dev.lake.core.LakeException;
import dev.lake.core.ScanRequest;
import dev.lake.core.TableRef;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.apache.iceberg.DeleteFile;
import org.apache.iceberg.FileContent;
import org.apache.iceberg.FileScanTask;
import org.apache.iceberg.PartitionField;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.StructLike;
import org.apache.iceberg.Table;
import org.apache.iceberg.TableScan;
import org.apache.iceberg.types.Types;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Direct reads: the pinned scan's files handed to DuckDB's own Parquet reader ({@link
 * ParquetScanSql}) through local copies ({@link DataFileCache}). File plans are cached per (table
 * UUID, snapshot id, pushed filter): a snapshot never changes, so neither does its plan. The table
 * comes from the resolver's cache when it holds the sealed incarnation and snapshot (the front
 * door's verify has just point-loaded it), so a DoGet costs one catalog load.
 */
final class DirectScans {
  private static final Logger LOG = LoggerFactory.getLogger(DirectScans.class);

  private final IcebergResolver resolver;
  private final DataFileCache files;
  private final Cache<PlanKey, List<FileScanTask>> plans =
      Caffeine.newBuilder().maximumSize(1_000).build();
  private final java.util.concurrent.atomic.AtomicLong served =
      new java.util.concurrent.atomic.AtomicLong();

  DirectScans(IcebergResolver resolver, DataFileCache files) {
    this.resolver = requireNonNull(resolver, "resolver is null");
    this.files = requireNonNull(files, "files is null");
  }

  private record PlanKey(
      String uuid, long snapshotId, List<String> files, List<ScanRequest.Predicate> filter) {}

  Optional<FileScan> fileScan(
      TableRef ref, IcebergSnapshot pinned, ScanRequest request, IcebergReader reader) {
    Table table = resolver.tableFor(ref, pinned);
    IcebergReader.checkFormat(ref, table);
    org.apache.iceberg.Schema schema = IcebergReader.schemaAt(table, pinned);
    org.apache.iceberg.Schema projection = IcebergReader.project(ref, schema, request.columns());
    ArrowTypes.toArrow(projection); // the same fail-closed type check as the generic reader
    List<FileScanTask> tasks = List.of();
    if (pinned.snapshotId() != CatalogClient.NO_SNAPSHOT) {
      tasks =
          plans.get(
              new PlanKey(
                  pinned.tableUuid(), pinned.snapshotId(), pinned.files(), request.filter()),
              k -> {
                TableScan scan = IcebergReader.pinnedScan(table, pinned, schema, request.filter());
                return List.copyOf(reader.plan(ref, table, pinned, scan));
              });
    }
    List<DataFileCache.Lease> leases = new ArrayList<>();
    try {
      Optional<List<ParquetScanSql.DataTask>> local = localTasks(ref, pinned, table, tasks, leases);
      Optional<String> sql =
          local.flatMap(l -> ParquetScanSql.render(projection.columns(), schema, l));
      if (sql.isEmpty()) {
        leases.forEach(DataFileCache.Lease::close);
        return Optional.empty();
      }
      served.incrementAndGet();
      long bytes = leases.stream().mapToLong(l -> l.entry().bytes).sum();
      return Optional.of(new FileScan(sql.get(), bytes, List.copyOf(leases)));
    } catch (RuntimeException e) {
      leases.forEach(DataFileCache.Lease::close);
      throw e;
    }
  }

  /** Scans handed to DuckDB's Parquet reader so far. */
  long served() {
    return served.get();
  }

  /** Leases local copies of every file; empty if one lacks Iceberg field ids. */
  private Optional<List<ParquetScanSql.DataTask>> localTasks(
      TableRef ref,
      IcebergSnapshot pinned,
      Table table,
      List<FileScanTask> tasks,
      List<DataFileCache.Lease> leases) {
    List<ParquetScanSql.DataTask> out = new ArrayList<>();
    Map<String, DataFileCache.Lease> byLocation = new HashMap<>();
    Table[] current = {table};
    for (FileScanTask t : tasks) {
      DataFileCache.Lease data =
          lease(ref, pinned, current, t.file().location(), t.file().fileSizeInBytes(), byLocation);
      leases.add(data);
      if (!data.hasFieldIds()) {
        return Optional.empty(); // Iceberg's fallback/name-mapping rules: generic reader
      }
      List<String> positions = new ArrayList<>();
      Map<List<Integer>, List<String>> equality = new LinkedHashMap<>();
      for (DeleteFile d : t.deletes()) {
        DataFileCache.Lease del =
            lease(ref, pinned, current, d.location(), d.fileSizeInBytes(), byLocation);
        if (!leases.contains(del)) {
          leases.add(del);
        }
        if (!del.hasFieldIds()) {
          return Optional.empty();
        }
        if (d.content() == FileContent.POSITION_DELETES) {
          positions.add(del.path().toString());
        } else {
          equality
              .computeIfAbsent(List.copyOf(d.equalityFieldIds()), k -> new ArrayList<>())
              .add(del.path().toString());
        }
      }
      List<ParquetScanSql.EqualityDelete> eq = new ArrayList<>();
      equality.forEach((ids, paths) -> eq.add(new ParquetScanSql.EqualityDelete(ids, paths)));
      out.add(
          new ParquetScanSql.DataTask(
              data.path().toString(),
              t.file().location(),
              t.file().recordCount(),
              identityConstants(t.spec(), t.file().partition()),
              positions,
              eq,
              data.columns()));
    }
    return Optional.of(out);
  }

  /** One lease per distinct file per query; a failed read renews the table once, then fails. */
  private DataFileCache.Lease lease(
      TableRef ref,
      IcebergSnapshot pinned,
      Table[] table,
      String location,
      long size,
      Map<String, DataFileCache.Lease> byLocation) {
    DataFileCache.Lease known = byLocation.get(location);
    if (known != null) {
      return known;
    }
    DataFileCache.Lease lease;
    try {
      lease = files.acquire(pinned.tableUuid(), table[0].io(), location, size);
    } catch (UncheckedIOException | org.apache.iceberg.exceptions.NotFoundException e) {
      failedOnce(ref, e);
      table[0] = resolver.pointLoad(ref, pinned); // re-checks the snapshot, fresh FileIO
      try {
        lease = files.acquire(pinned.tableUuid(), table[0].io(), location, size);
      } catch (RuntimeException again) {
        throw new LakeException(
            ErrorCode.EXTERNAL_UNAVAILABLE,
            "Reading a data file of "
                + ref
                + " failed again after renewing the table ("
                + again.getClass().getSimpleName()
                + ")");
      }
    }
    byLocation.put(location, lease);
    return lease;
  }

  private static void failedOnce(TableRef ref, RuntimeException e) {
    LOG.warn(
        "fetching a data file of {} failed ({}); renewing the table once",
        ref,
        e.getClass().getSimpleName());
  }

  /** Identity-partition values by source field id (Iceberg's internal representation). */
  private static Map<Integer, Object> identityConstants(PartitionSpec spec, StructLike partition) {
    Map<Integer, Object> out = new HashMap<>();
    List<PartitionField> fields = spec.fields();
    for (int i = 0; i < fields.size(); i++) {
      PartitionField f = fields.get(i);
      if (f.transform().isIdentity()) {
        Types.NestedField source = spec.schema().findField(f.sourceId());
        Class<?> javaClass = source == null ? Object.class : source.type().typeId().javaClass();
        out.put(f.sourceId(), partition.get(i, javaClass));
      }
    }
    return out;
  }
}
