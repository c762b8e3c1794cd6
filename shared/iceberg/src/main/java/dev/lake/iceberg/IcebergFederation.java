package dev.lake.iceberg;

import static java.util.Objects.requireNonNull;

import com.github.benmanes.caffeine.cache.Ticker;
import dev.lake.core.DataLocations;
import dev.lake.core.ErrorCode;
import dev.lake.core.LakeException;
import dev.lake.core.TableReader;
import dev.lake.core.TableResolver;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;
import java.util.concurrent.SynchronousQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import org.apache.arrow.memory.BufferAllocator;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The entry point of Iceberg federation: one connection to the deployment's Iceberg REST catalog,
 * and the two ports lake needs from it. Wire {@link #resolver()} into core {@code Catalogs} (it
 * serves the {@code iceberg} catalog) and {@link #reader()} into the engine's table readers (it
 * reads {@code IcebergSnapshot}s). Close it at shutdown.
 *
 * <pre>{@code
 * IcebergFederation iceberg = IcebergFederation.connect(
 *     IcebergConfig.fromFlags("http://127.0.0.1:8181", null, "demo"), allocator);
 * Catalogs catalogs = new Catalogs(List.of(lakeResolver, iceberg.resolver()));
 * List<TableReader> readers = List.of(lanceReader, iceberg.reader());
 * }</pre>
 */
public final class IcebergFederation implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(IcebergFederation.class);

  private final CatalogClient client;
  private final IcebergResolver resolver;
  private final IcebergReader reader;
  private final Optional<DataFileCache> files;
  private final Optional<Path> ownedDirectory;
  private final ThreadPoolExecutor loads;

  private IcebergFederation(
      CatalogClient client,
      IcebergResolver resolver,
      IcebergReader reader,
      Optional<DataFileCache> files,
      Optional<Path> ownedDirectory,
      ThreadPoolExecutor loads) {
    this.loads = loads;
    this.client = client;
    this.resolver = resolver;
    this.reader = reader;
    this.files = files;
    this.ownedDirectory = ownedDirectory;
  }

  /**
   * Connects to the catalog (its config endpoint and, with OAuth2, its token endpoint). Fails with
   * {@code EXTERNAL_UNAVAILABLE} if the catalog cannot be reached; the message never holds secrets.
   *
   * @param allocator reserved for readers that need a parent allocator; scans allocate from the
   *     allocator the engine passes per scan
   */
  public static IcebergFederation connect(IcebergConfig config, BufferAllocator allocator) {
    return connect(config, IcebergFilesConfig.defaults(), allocator);
  }

  /**
   * Connects like {@link #connect(IcebergConfig, BufferAllocator)}, with direct reads as {@code
   * files} says. Unconfined (no {@link DataLocations}): for tests and embedders.
   */
  public static IcebergFederation connect(
      IcebergConfig config, IcebergFilesConfig files, BufferAllocator allocator) {
    return connect(config, files, Optional.empty(), allocator);
  }

  /**
   * Connects like {@link #connect(IcebergConfig, IcebergFilesConfig, BufferAllocator)}, every table
   * confined to {@code locations}: its metadata, manifests, data and delete files must lie under
   * them, checked before anything opens, stats or copies a file; else the statement fails with
   * {@code PERMISSION_DENIED} naming the table.
   *
   * @param locations the deployment's data locations; empty = unconfined (tests, embedders)
   */
  public static IcebergFederation connect(
      IcebergConfig config,
      IcebergFilesConfig files,
      Optional<DataLocations> locations,
      BufferAllocator allocator) {
    requireNonNull(config, "config is null");
    requireNonNull(files, "files is null");
    requireNonNull(locations, "locations is null");
    requireNonNull(allocator, "allocator is null");
    registerFormatModels();
    CatalogClient client = CatalogClient.connect(config, locations);
    ResolutionCache cache =
        new ResolutionCache(
            config, ref -> IcebergResolver.load(client, ref), Ticker.systemTicker());
    ThreadPoolExecutor loads = verifyThreads();
    IcebergResolver resolver = new IcebergResolver(config, client, cache, loads);
    Optional<Path> owned = Optional.empty();
    Optional<DataFileCache> cacheOfFiles = Optional.empty();
    if (files.direct()) {
      try {
        Path dir =
            files.cacheDirectory().isPresent()
                ? files.cacheDirectory().get()
                : Files.createTempDirectory("lake-iceberg-files");
        owned = files.cacheDirectory().isPresent() ? Optional.empty() : Optional.of(dir);
        cacheOfFiles = Optional.of(new DataFileCache(dir, files.cacheBytes()));
      } catch (IOException | UncheckedIOException e) {
        client.close();
        throw new LakeException(
            ErrorCode.INTERNAL, "Cannot create the Iceberg file cache directory", e);
      }
    }
    LOG.info("Iceberg federation connected: {} (direct Parquet reads: {})", config, files.direct());
    return new IcebergFederation(
        client,
        resolver,
        new IcebergReader(resolver, client.catalogName(), cacheOfFiles, locations),
        cacheOfFiles,
        owned,
        loads);
  }

  /** Most verify point-loads in flight beside the callers' own (a statement's other tables). */
  static final int VERIFY_THREADS = 8;

  /**
   * The threads of {@link IcebergResolver#verifyAll}: up to {@link #VERIFY_THREADS} daemon threads
   * that end when idle; a load none of them can take (all busy, or the federation closed) runs on
   * the submitting thread, so a check is never dropped or queued behind other statements'.
   */
  private static ThreadPoolExecutor verifyThreads() {
    java.util.concurrent.atomic.AtomicInteger ids = new java.util.concurrent.atomic.AtomicInteger();
    ThreadPoolExecutor pool =
        new ThreadPoolExecutor(
            VERIFY_THREADS,
            VERIFY_THREADS,
            30,
            TimeUnit.SECONDS,
            new SynchronousQueue<>(),
            r -> {
              Thread t = new Thread(r, "lake-iceberg-verify-" + ids.incrementAndGet());
              t.setDaemon(true);
              return t;
            },
            (task, executor) -> task.run());
    pool.allowCoreThreadTimeOut(true);
    return pool;
  }

  /**
   * Iceberg 1.11 registers its file-format readers in the static initializer of {@code
   * FormatModelRegistry}, looking classes up through the thread context class loader. Scans run on
   * DuckDB's native threads, which have none, so the registry would come up empty there ("Format
   * model is not registered for format PARQUET"). Initialize it here, on a Java thread, with this
   * module's class loader as context.
   */
  private static void registerFormatModels() {
    Thread thread = Thread.currentThread();
    ClassLoader previous = thread.getContextClassLoader();
    thread.setContextClassLoader(IcebergFederation.class.getClassLoader());
    try {
      Class.forName(
          "org.apache.iceberg.formats.FormatModelRegistry",
          true,
          IcebergFederation.class.getClassLoader());
    } catch (ClassNotFoundException e) {
      throw new IllegalStateException("iceberg-core is missing from the classpath", e);
    } finally {
      thread.setContextClassLoader(previous);
    }
  }

  /**
   * The resolver of the {@code iceberg} catalog (allowlist, snapshot cache, fail-closed verify).
   */
  public TableResolver resolver() {
    return resolver;
  }

  /** The reader of {@code IcebergSnapshot}s (pinned planning, deletes applied, Arrow streams). */
  public TableReader reader() {
    return reader;
  }

  /** How many scans DuckDB has read directly from data files so far (observability, tests). */
  public long directScans() {
    return reader.directScans();
  }

  /** How many data files scans have planned so far (after partition and file pruning). */
  public long plannedDataFiles() {
    return reader.plannedFiles();
  }

  @Override
  public void close() {
    loads.shutdown();
    try {
      client.close();
    } finally {
      files.ifPresent(DataFileCache::close);
      ownedDirectory.ifPresent(IcebergFederation::deleteTree);
    }
  }

  private static void deleteTree(Path dir) {
    try (java.util.stream.Stream<Path> paths = Files.walk(dir)) {
      paths.sorted(java.util.Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
    } catch (IOException | UncheckedIOException e) {
      LOG.debug("deleting the Iceberg file cache directory failed", e);
    }
  }
}
