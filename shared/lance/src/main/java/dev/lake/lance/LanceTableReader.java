package dev.lake.lance;

import static java.util.Objects.requireNonNull;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import dev.lake.core.DataLocations;
import dev.lake.core.ErrorCode;
import dev.lake.core.LakeException;
import dev.lake.core.ScanRequest;
import dev.lake.core.Snapshot;
import dev.lake.core.SnapshotProbe;
import dev.lake.core.SplitSource;
import dev.lake.core.TableReader;
import dev.lake.core.TableRef;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.ipc.ArrowReader;
import org.apache.arrow.vector.types.pojo.Schema;
import org.lance.Dataset;
import org.lance.ReadOptions;
import org.lance.ipc.LanceScanner;
import org.lance.ipc.ScanOptions;

/**
 * Reads a Lance dataset at EXACTLY the sealed version, never another. Scans are projected, may
 * carry a conservative filter, and are split into up to {@code parallelism} streams by groups of
 * whole fragments (every row exactly once).
 *
 * <p>Opened datasets of local locations are kept in a bounded cache per snapshot (location,
 * incarnation, version) with their schema and fragment list; a Lance {@link Dataset} is safe for
 * concurrent scans (its native calls run under a read lock). Every use first checks that the
 * version's manifest file still exists (one stat), so a removed version fails closed with {@code
 * SNAPSHOT_GONE} exactly like an uncached open. Remote locations are opened per use.
 *
 * <p>A reader built with the deployment's {@link DataLocations} checks the dataset location before
 * every use (schema, retention check, scan), so a registry entry outside them fails with {@code
 * PERMISSION_DENIED} naming the table and nothing there is opened.
 */
public final class LanceTableReader
    implements TableReader, SnapshotProbe, SplitSource, AutoCloseable {
  /** Most open datasets kept in the handle cache. */
  public static final int MAX_OPEN_DATASETS = 256;

  private final BufferAllocator allocator;
  private final Map<String, String> storageOptions;
  private final Optional<DataLocations> locations;
  private final Cache<LanceSnapshot, SharedDataset> open;

  /**
   * An unconfined reader of local datasets (no object-store settings, no {@link DataLocations}):
   * for tests and embedders that own their files. lake's processes build readers through {@link
   * LanceFormat} with the deployment's data locations.
   */
  public LanceTableReader(BufferAllocator allocator) {
    this(allocator, Map.of(), Optional.empty());
  }

  /**
   * @param storageOptions Lance object-store settings of the deployment (region, endpoint, ...) for
   *     {@code s3://} locations; see {@link LanceStorage}
   * @param locations where datasets may be read from; empty = unconfined (tests, embedders)
   */
  public LanceTableReader(
      BufferAllocator allocator,
      Map<String, String> storageOptions,
      Optional<DataLocations> locations) {
    this.allocator = requireNonNull(allocator, "allocator is null");
    this.storageOptions = Map.copyOf(requireNonNull(storageOptions, "storageOptions is null"));
    this.locations = requireNonNull(locations, "locations is null");
    this.open =
        Caffeine.newBuilder()
            .maximumSize(MAX_OPEN_DATASETS)
            .executor(Runnable::run)
            .<LanceSnapshot, SharedDataset>removalListener((k, v, cause) -> v.release())
            .build();
  }

  /** Loads Lance's native library (a large one: seconds on a loaded machine). */
  @Override
  public void warmUp() {
    org.lance.JniLoader.ensureLoaded();
  }

  @Override
  public boolean supports(Snapshot snapshot) {
    return snapshot instanceof LanceSnapshot;
  }

  @Override
  public Schema schema(TableRef ref, Snapshot snapshot) {
    SharedDataset ds = acquire(ref, (LanceSnapshot) snapshot);
    try {
      return ds.schema();
    } finally {
      ds.release();
    }
  }

  @Override
  public void checkRetained(TableRef ref, Snapshot snapshot) {
    LanceSnapshot s = ((LanceSnapshot) snapshot).whole();
    checkLocation(ref, s);
    Optional<Path> versions = versionsDir(s.location());
    if (versions.isPresent()) {
      if (!manifestExists(versions.get(), s.version())) {
        open.invalidate(s);
        throw gone(ref, s);
      }
    } else {
      open(ref, s, allocator, storageOptions).close(); // generic: the version opens, or it is gone
    }
  }

  @Override
  public List<ArrowReader> scan(
      TableRef ref, Snapshot snapshot, ScanRequest request, BufferAllocator allocator) {
    SharedDataset shared = acquire(ref, (LanceSnapshot) snapshot);
    List<ArrowReader> out = new ArrayList<>();
    try {
      List<List<Integer>> groups =
          groups(fragments(ref, (LanceSnapshot) snapshot, shared), request.parallelism());
      String filter = LanceFilters.toFilter(request.filter());
      for (List<Integer> group : groups) {
        out.add(open(shared, request, group, filter, allocator));
      }
      return out;
    } catch (RuntimeException e) {
      for (ArrowReader r : out) {
        try {
          r.close();
        } catch (Exception ignored) {
          // error path: the original failure is reported
        }
      }
      throw e;
    } finally {
      shared.release(); // the streams hold their own references
    }
  }

  /**
   * Contiguous groups of whole fragments of about {@code targetRows} rows, at most {@code
   * maxSplits} of them; a split (restricted snapshot) is never split again.
   */
  @Override
  public List<Snapshot> splits(TableRef ref, Snapshot snapshot, long targetRows, int maxSplits) {
    LanceSnapshot s = (LanceSnapshot) snapshot;
    if (s.restricted() || maxSplits < 2) {
      return List.of(snapshot);
    }
    SharedDataset shared = acquire(ref, s);
    try {
      List<SharedDataset.FragmentInfo> fragments = shared.fragments();
      long rows = fragments.stream().mapToLong(SharedDataset.FragmentInfo::rows).sum();
      long wanted = Math.max(1, (rows + Math.max(1, targetRows) - 1) / Math.max(1, targetRows));
      int n = (int) Math.min(Math.min(wanted, maxSplits), fragments.size());
      if (n < 2) {
        return List.of(snapshot);
      }
      List<Snapshot> out = new ArrayList<>();
      for (List<Integer> group : groups(fragments, n)) {
        out.add(
            new LanceSnapshot(
                s.location(), s.incarnation(), s.version(), group.stream().sorted().toList()));
      }
      return out;
    } finally {
      shared.release();
    }
  }

  /**
   * The fragments {@code snapshot} reads: all of the version's, or a split's own, each of which
   * must be one of the version's (fragments of a version never change; a missing one fails closed).
   */
  private static List<SharedDataset.FragmentInfo> fragments(
      TableRef ref, LanceSnapshot snapshot, SharedDataset shared) {
    if (!snapshot.restricted()) {
      return shared.fragments();
    }
    java.util.Set<Integer> wanted = new java.util.HashSet<>(snapshot.fragments());
    List<SharedDataset.FragmentInfo> out =
        shared.fragments().stream().filter(f -> wanted.contains(f.id())).toList();
    if (out.size() != wanted.size()) {
      throw new LakeException(
          ErrorCode.SNAPSHOT_GONE,
          "a split of version " + snapshot.version() + " of " + ref + " is no longer available");
    }
    return out;
  }

  /** Closes every cached dataset (datasets still being scanned close when their scans end). */
  @Override
  public void close() {
    open.invalidateAll();
  }

  /** A retained dataset at exactly the snapshot's version; the caller releases it. */
  private SharedDataset acquire(TableRef ref, LanceSnapshot split) {
    // splits of one version share the version's open dataset
    LanceSnapshot snapshot = split.whole();
    checkLocation(ref, snapshot);
    if (versionsDir(snapshot.location()).isEmpty()) {
      return new SharedDataset(open(ref, snapshot, allocator, storageOptions));
    }
    while (true) {
      checkRetained(ref, snapshot);
      SharedDataset ds =
          open.get(snapshot, s -> new SharedDataset(open(ref, s, allocator, storageOptions)));
      if (ds.tryRetain()) {
        return ds;
      }
      open.asMap().remove(snapshot, ds); // closed by an eviction racing with us: open again
    }
  }

  private static ArrowReader open(
      SharedDataset shared,
      ScanRequest request,
      List<Integer> fragments,
      String filter,
      BufferAllocator allocator) {
    ScanOptions.Builder options = new ScanOptions.Builder().batchSize(request.batchSize());
    if (!fragments.isEmpty()) {
      options.fragmentIds(fragments);
    }
    if (!request.columns().isEmpty()) {
      options.columns(request.columns());
    }
    if (!filter.isEmpty()) {
      options.filter(filter);
    }
    if (!shared.tryRetain()) {
      throw new IllegalStateException("dataset closed while opening a scan");
    }
    LanceScanner scanner;
    try {
      // the query's allocator, not the cached dataset's, owns the scan's batches
      scanner = LanceScanner.create(shared.dataset(), options.build(), allocator);
    } catch (RuntimeException e) {
      shared.release();
      throw e;
    }
    try {
      return new LanceStream(allocator, scanner, scanner.scanBatches(), shared);
    } catch (RuntimeException e) {
      try {
        scanner.close();
      } catch (Exception ignored) {
        // error path
      }
      shared.release();
      throw e;
    }
  }

  /** Splits fragments into at most {@code parallelism} contiguous groups of similar row counts. */
  static List<List<Integer>> groups(List<SharedDataset.FragmentInfo> fragments, int parallelism) {
    List<List<Integer>> groups = new ArrayList<>();
    if (fragments.isEmpty()) {
      groups.add(List.of());
      return groups;
    }
    long total = 0;
    for (SharedDataset.FragmentInfo f : fragments) {
      total += f.rows();
    }
    int n = Math.min(parallelism, fragments.size());
    long target = Math.max(1, (total + n - 1) / n);
    List<Integer> current = new ArrayList<>();
    long acc = 0;
    for (int i = 0; i < fragments.size(); i++) {
      current.add(fragments.get(i).id());
      acc += fragments.get(i).rows();
      int fragmentsLeft = fragments.size() - i - 1;
      int groupsToOpen = n - groups.size() - 1;
      if (groupsToOpen > 0 && (acc >= target || fragmentsLeft == groupsToOpen)) {
        groups.add(current);
        current = new ArrayList<>();
        acc = 0;
      }
    }
    if (!current.isEmpty()) {
      groups.add(current);
    }
    return groups;
  }

  static Dataset open(
      TableRef ref,
      LanceSnapshot snapshot,
      BufferAllocator allocator,
      Map<String, String> storageOptions) {
    try {
      return Dataset.open()
          .allocator(allocator)
          .uri(snapshot.location())
          .readOptions(
              new ReadOptions.Builder()
                  .setVersion(snapshot.version())
                  .setStorageOptions(storageOptions)
                  .build())
          .build();
    } catch (RuntimeException e) {
      throw LanceErrors.versionGone(ref, snapshot, e);
    }
  }

  /** Fails before anything opens a dataset outside the deployment's data locations. */
  private void checkLocation(TableRef ref, LanceSnapshot snapshot) {
    locations.ifPresent(l -> l.checkRead(ref, snapshot.location()));
  }

  private static LakeException gone(TableRef ref, LanceSnapshot snapshot) {
    return new LakeException(
        ErrorCode.SNAPSHOT_GONE,
        "version " + snapshot.version() + " of " + ref + " is no longer available");
  }

  /** The {@code _versions} directory of a local dataset; empty for remote locations. */
  /** A location with a scheme other than file:// (compiled once: this runs on every query). */
  private static final java.util.regex.Pattern URI_SCHEME =
      java.util.regex.Pattern.compile("^[A-Za-z][A-Za-z0-9+.-]*://.*");

  static Optional<Path> versionsDir(String location) {
    String l = location;
    if (l.startsWith("file://")) {
      l = l.substring("file://".length());
    } else if (URI_SCHEME.matcher(l).matches()) {
      return Optional.empty();
    }
    return Optional.of(Path.of(l).resolve("_versions"));
  }

  /** Whether either Lance manifest naming scheme has the version's manifest. */
  static boolean manifestExists(Path versions, long version) {
    return Files.exists(versions.resolve(LanceDatasets.manifestV2(version)))
        || Files.exists(versions.resolve(version + ".manifest"));
  }
}
