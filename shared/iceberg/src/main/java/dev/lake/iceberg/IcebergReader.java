package dev.lake.iceberg;

import static java.util.Objects.requireNonNull;

import dev.lake.core.DataLocations;
import dev.lake.core.ErrorCode;
import dev.lake.core.FileScanSource;
import dev.lake.core.LakeException;
import dev.lake.core.ScanRequest;
import dev.lake.core.Snapshot;
import dev.lake.core.SnapshotProbe;
import dev.lake.core.SplitSource;
import dev.lake.core.TableReader;
import dev.lake.core.TableRef;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.ipc.ArrowReader;
import org.apache.arrow.vector.types.pojo.Schema;
import org.apache.iceberg.DeleteFile;
import org.apache.iceberg.FileContent;
import org.apache.iceberg.FileFormat;
import org.apache.iceberg.FileScanTask;
import org.apache.iceberg.HasTableOperations;
import org.apache.iceberg.Table;
import org.apache.iceberg.TableOperations;
import org.apache.iceberg.TableScan;
import org.apache.iceberg.io.CloseableIterable;
import org.apache.iceberg.types.Types;
import org.apache.iceberg.util.SnapshotUtil;

/**
 * Reads exactly a sealed Iceberg snapshot: point-loads the table (failing closed if the snapshot or
 * the incarnation is gone), plans files for the pinned snapshot id with the projected columns and
 * the pushable predicates, and splits the file tasks over up to {@code parallelism} Arrow streams.
 * A table with no snapshot yet reads as empty.
 */
final class IcebergReader implements TableReader, FileScanSource, SnapshotProbe, SplitSource {
  /** Highest table format version lake reads; newer ones fail closed. */
  static final int MAX_FORMAT_VERSION = 3;

  private final IcebergResolver resolver;
  private final String catalogName;
  private final AtomicLong plannedFiles = new AtomicLong();
  private final Optional<DirectScans> direct;
  private final List<Path> readable;
  private final Optional<DataLocations> locations;

  /**
   * @param files the local copies DuckDB reads directly, or empty to read every scan through
   *     Iceberg's generic reader
   * @param locations where data and delete files may lie, checked for every planned file before
   *     anything reads it; empty = unconfined (tests, embedders)
   */
  IcebergReader(
      IcebergResolver resolver,
      String catalogName,
      Optional<DataFileCache> files,
      Optional<DataLocations> locations) {
    this.resolver = requireNonNull(resolver, "resolver is null");
    this.catalogName = requireNonNull(catalogName, "catalogName is null");
    this.locations = requireNonNull(locations, "locations is null");
    this.direct = files.map(f -> new DirectScans(resolver, f));
    this.readable = files.map(f -> List.of(f.directory())).orElse(List.of());
  }

  @Override
  public List<Path> readableDirectories() {
    return readable;
  }

  @Override
  public Optional<FileScan> fileScan(TableRef ref, Snapshot snapshot, ScanRequest request) {
    requireNonNull(request, "request is null");
    if (direct.isEmpty()) {
      return Optional.empty();
    }
    return direct.get().fileScan(ref, (IcebergSnapshot) snapshot, request, this);
  }

  /**
   * The engine's check before it serves a snapshot-cache copy: the same one a direct read makes
   * before it names the pinned files ({@link IcebergResolver#tableFor}: the table last loaded from
   * the catalog must still be the sealed incarnation and retain the sealed snapshot, else a
   * point-load decides), so a copy is served exactly when the uncached read would read. No extra
   * catalog round trip: every execution's own catalog check (the front door's per-DoGet
   * verification, the worker's verify before it executes) point-loads the table and records what it
   * found, and a snapshot it found gone fails here from then on, evicting its copies.
   */
  @Override
  public void checkRetained(TableRef ref, Snapshot snapshot) {
    IcebergResolver.checkRetained(
        ref, (IcebergSnapshot) snapshot, resolver.tableFor(ref, snapshot));
  }

  /**
   * A snapshot's rows and types are fixed by its table UUID and snapshot id when the snapshot
   * records its schema id ({@link #schemaAt}); a table without a snapshot, or a snapshot without a
   * schema id (written by Iceberg before 0.13), reads with whatever schema is current, so it is
   * never kept. The table comes from {@link IcebergResolver#tableFor}, like {@link #checkRetained}.
   */
  @Override
  public boolean cacheable(TableRef ref, Snapshot snapshot) {
    IcebergSnapshot pinned = (IcebergSnapshot) snapshot;
    if (pinned.snapshotId() == CatalogClient.NO_SNAPSHOT) {
      return false;
    }
    org.apache.iceberg.Snapshot s = resolver.tableFor(ref, snapshot).snapshot(pinned.snapshotId());
    return s != null && s.schemaId() != null;
  }

  @Override
  public boolean supports(Snapshot snapshot) {
    return snapshot instanceof IcebergSnapshot s && s.catalogName().equals(catalogName);
  }

  @Override
  public Schema schema(TableRef ref, Snapshot snapshot) {
    Table table = resolver.tableFor(ref, snapshot);
    checkFormat(ref, table);
    return ArrowTypes.toArrow(schemaAt(table, (IcebergSnapshot) snapshot));
  }

  @Override
  public List<ArrowReader> scan(
      TableRef ref, Snapshot snapshot, ScanRequest request, BufferAllocator allocator) {
    requireNonNull(request, "request is null");
    requireNonNull(allocator, "allocator is null");
    IcebergSnapshot pinned = (IcebergSnapshot) snapshot;
    Table table = resolver.pointLoad(ref, snapshot);
    checkFormat(ref, table);
    org.apache.iceberg.Schema tableSchema = schemaAt(table, pinned);
    org.apache.iceberg.Schema projection = project(ref, tableSchema, request.columns());
    ArrowTypes.toArrow(projection); // fails closed on unsupported types before any I/O
    TaskStream.Renewer renewer =
        () -> {
          Table renewed = resolver.pointLoad(ref, snapshot);
          return new TaskStream.Context(renewed.io(), schemaAt(renewed, pinned));
        };
    TaskStream.Context context = new TaskStream.Context(table.io(), tableSchema);
    if (pinned.snapshotId() == CatalogClient.NO_SNAPSHOT) {
      return List.of(
          new TaskStream(
              allocator,
              ref,
              List.of(),
              projection,
              projection,
              context,
              request.batchSize(),
              renewer));
    }
    TableScan scan = pinnedScan(table, pinned, tableSchema, request.filter());
    if (!request.columns().isEmpty()) {
      scan = scan.select(request.columns());
    }
    List<FileScanTask> tasks = plan(ref, table, pinned, scan);
    plannedFiles.addAndGet(tasks.size());
    // The scan's schema is the projection plus the columns its residual filter needs.
    org.apache.iceberg.Schema readSchema = scan.schema();
    List<ArrowReader> out = new ArrayList<>();
    for (List<FileScanTask> share : split(tasks, request.parallelism())) {
      out.add(
          new TaskStream(
              allocator,
              ref,
              share,
              readSchema,
              projection,
              context,
              request.batchSize(),
              renewer));
    }
    return out;
  }

  /** Scans read directly by DuckDB so far (the rest went through the generic reader). */
  long directScans() {
    return direct.map(DirectScans::served).orElse(0L);
  }

  /** A scan of the pinned snapshot with the pushable predicates of {@code filter}. */
  static TableScan pinnedScan(
      Table table,
      IcebergSnapshot pinned,
      org.apache.iceberg.Schema schema,
      List<ScanRequest.Predicate> filter) {
    return table
        .newScan()
        .useSnapshot(pinned.snapshotId())
        .caseSensitive(false)
        .filter(Filters.toExpression(schema, filter));
  }

  /** Data files planned by all scans so far (observability; tests assert pruning with it). */
  long plannedFiles() {
    return plannedFiles.get();
  }

  /** See {@link IcebergSplits}. */
  @Override
  public List<Snapshot> splits(TableRef ref, Snapshot snapshot, long targetRows, int maxSplits) {
    IcebergSnapshot pinned = (IcebergSnapshot) snapshot;
    if (pinned.restricted() || maxSplits < 2 || pinned.snapshotId() == CatalogClient.NO_SNAPSHOT) {
      return List.of(snapshot);
    }
    Table table = resolver.tableFor(ref, pinned);
    checkFormat(ref, table);
    TableScan scan = pinnedScan(table, pinned, schemaAt(table, pinned), List.of());
    return IcebergSplits.cut(pinned, plan(ref, table, pinned, scan), targetRows, maxSplits);
  }

  /**
   * The pinned snapshot's file scan tasks (of a split: those of its data files, each with its
   * deletes; a filter may have pruned some of them, exactly as it prunes the whole snapshot's).
   */
  List<FileScanTask> plan(TableRef ref, Table table, IcebergSnapshot pinned, TableScan scan) {
    List<FileScanTask> tasks = new ArrayList<>();
    java.util.Set<String> only = new java.util.HashSet<>(pinned.files());
    try (CloseableIterable<FileScanTask> files = scan.planFiles()) {
      for (FileScanTask t : files) {
        checkTask(ref, t);
        if (only.isEmpty() || only.contains(t.file().location())) {
          checkLocations(ref, t);
          tasks.add(t);
        }
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    } catch (LakeException e) {
      throw e;
    } catch (IllegalArgumentException e) {
      // useSnapshot of an id that vanished between load and plan
      if (table.snapshot(pinned.snapshotId()) == null) {
        throw IcebergResolver.gone(ref, pinned);
      }
      throw planFailed(ref, e);
    } catch (RuntimeException e) {
      throw confinement(e).orElseGet(() -> planFailed(ref, e));
    }
    return tasks;
  }

  /** Every data and delete file of {@code t} lies under the data locations, before any is read. */
  private void checkLocations(TableRef ref, FileScanTask t) {
    if (locations.isPresent()) {
      locations.get().checkRead(ref, t.file().location());
      for (DeleteFile d : t.deletes()) {
        locations.get().checkRead(ref, d.location());
      }
    }
  }

  /**
   * The data-location refusal of a manifest read ({@link ConfinedFileIO}) that Iceberg's planning
   * wrapped in its own exception, if that is what failed.
   */
  static Optional<LakeException> confinement(Throwable e) {
    for (Throwable t = e; t != null; t = t.getCause()) {
      if (t instanceof LakeException l && l.code() == ErrorCode.PERMISSION_DENIED) {
        return Optional.of(l);
      }
    }
    return Optional.empty();
  }

  private static LakeException planFailed(TableRef ref, RuntimeException e) {
    return new LakeException(
        ErrorCode.EXTERNAL_UNAVAILABLE,
        "Planning the scan of "
            + ref
            + " failed ("
            + e.getClass().getSimpleName()
            + "); its manifests may be unreadable, retry later");
  }

  /** Fails closed on file features lake does not read (only Parquet data files are read). */
  private static void checkTask(TableRef ref, FileScanTask t) {
    if (t.file().format() != FileFormat.PARQUET) {
      throw new LakeException(
          ErrorCode.UNSUPPORTED,
          "Table " + ref + " has " + t.file().format() + " data files; lake reads only Parquet");
    }
    for (DeleteFile d : t.deletes()) {
      if (d.format() == FileFormat.PUFFIN) {
        throw new LakeException(
            ErrorCode.UNSUPPORTED,
            "Table " + ref + " uses deletion vectors (Iceberg v3), which lake does not read yet");
      }
      if (d.content() != FileContent.POSITION_DELETES
          && d.content() != FileContent.EQUALITY_DELETES) {
        throw new LakeException(
            ErrorCode.UNSUPPORTED, "Table " + ref + " has delete files of kind " + d.content());
      }
    }
  }

  static void checkFormat(TableRef ref, Table table) {
    if (table instanceof HasTableOperations ops) {
      TableOperations o = ops.operations();
      int version = o.current().formatVersion();
      if (version > MAX_FORMAT_VERSION) {
        throw new LakeException(
            ErrorCode.UNSUPPORTED,
            "Table " + ref + " uses Iceberg format version " + version + ", lake reads up to 3");
      }
    }
  }

  static org.apache.iceberg.Schema schemaAt(Table table, IcebergSnapshot pinned) {
    if (pinned.snapshotId() == CatalogClient.NO_SNAPSHOT) {
      return table.schema();
    }
    return SnapshotUtil.schemaFor(table, pinned.snapshotId());
  }

  /** The requested columns in request order (case-insensitive), or all in table order. */
  static org.apache.iceberg.Schema project(
      TableRef ref, org.apache.iceberg.Schema schema, List<String> columns) {
    if (columns.isEmpty()) {
      return schema;
    }
    List<Types.NestedField> fields = new ArrayList<>();
    for (String c : columns) {
      Types.NestedField f = schema.caseInsensitiveFindField(c);
      if (f == null || schema.columns().stream().noneMatch(x -> x.fieldId() == f.fieldId())) {
        throw new LakeException(
            ErrorCode.QUERY_FAILED, "Table " + ref + " has no column " + c + " at this snapshot");
      }
      fields.add(f);
    }
    return new org.apache.iceberg.Schema(fields);
  }

  /** Greedy largest-first split of tasks into at most {@code n} non-empty shares. */
  static List<List<FileScanTask>> split(List<FileScanTask> tasks, int n) {
    int k = Math.max(1, Math.min(n, tasks.size()));
    List<List<FileScanTask>> shares = new ArrayList<>();
    long[] sizes = new long[k];
    for (int i = 0; i < k; i++) {
      shares.add(new ArrayList<>());
    }
    List<FileScanTask> sorted = new ArrayList<>(tasks);
    sorted.sort(Comparator.comparingLong(FileScanTask::length).reversed());
    for (FileScanTask t : sorted) {
      int min = 0;
      for (int i = 1; i < k; i++) {
        if (sizes[i] < sizes[min]) {
          min = i;
        }
      }
      shares.get(min).add(t);
      sizes[min] += t.length();
    }
    return shares;
  }
}
