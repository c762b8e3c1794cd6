package dev.lake.engine;

import static java.util.Objects.requireNonNull;

import com.sun.management.OperatingSystemMXBean;
import dev.lake.core.Bounds;
import io.soabase.recordbuilder.core.RecordBuilder;
import java.lang.management.ManagementFactory;
import java.nio.file.Path;
import java.time.Duration;

/**
 * Bounds of the embedded DuckDB engine. Every value is validated here; {@link #defaults(Path)}
 * sizes the engine memory from the memory the JVM reports for its machine or container ({@link
 * #defaultMemoryBytes(long)}).
 *
 * @param memoryLimitBytes DuckDB {@code memory_limit} (64 MiB .. 1 TiB)
 * @param threads DuckDB {@code threads} (1 .. 256)
 * @param tempDirectory spill directory ({@code temp_directory}); created if missing
 * @param maxTempBytes {@code max_temp_directory_size} (0 disables spilling .. 16 TiB)
 * @param batchSize rows per result batch and per Lance scan batch (1,024 .. 1,048,576)
 * @param scanParallelism most Arrow streams one table scan is split into (1 .. 64)
 * @param snapshotCacheBytes bytes of table snapshots the engine may keep materialized in DuckDB's
 *     native storage (0 = off; at most half of {@code memoryLimitBytes}; {@link #defaults} gives a
 *     quarter of it); see docs/engine.md, "Snapshot cache"
 * @param queryTimeout deadline of an interactive execution (planning and streaming its result)
 *     unless the caller asks for another one (default 5 min, 1 s .. {@code maxQueryTimeout})
 * @param maxQueryTimeout longest interactive deadline a caller may ask for (default 1 h, 1 s .. 24
 *     h)
 * @param durableQueryTimeout absolute deadline of a durable-tier execution, which the durable
 *     worker passes to {@link DuckDbQueryEngine#execute} (default 6 h, 1 s .. 7 d)
 * @param memoryPools how many DuckDB databases share the engine memory: each gets {@code
 *     memoryLimitBytes / memoryPools} ({@code memory_limit}) and the same share of the spill space;
 *     their snapshot caches share {@code snapshotCacheBytes} (each guaranteed an equal share, the
 *     rest borrowed by whichever pool uses it); a pool runs the statements of one tenant at a time,
 *     so a tenant exhausting its pool fails only its own statements (default 4, 1 .. 64 and at
 *     least {@link #MIN_MEMORY} per pool); see docs/engine.md, "Memory pools"
 * @param memoryPoolWait longest a statement waits for a pool while every pool runs other tenants'
 *     statements, then RESOURCE_EXHAUSTED (default 30 s, 0 .. 10 min; never longer than the
 *     statement's deadline)
 */
@RecordBuilder
public record EngineConfig(
    long memoryLimitBytes,
    int threads,
    Path tempDirectory,
    long maxTempBytes,
    int batchSize,
    int scanParallelism,
    long snapshotCacheBytes,
    @RecordBuilder.Initializer("DEFAULT_QUERY_TIMEOUT") Duration queryTimeout,
    @RecordBuilder.Initializer("DEFAULT_MAX_QUERY_TIMEOUT") Duration maxQueryTimeout,
    @RecordBuilder.Initializer("DEFAULT_DURABLE_QUERY_TIMEOUT") Duration durableQueryTimeout,
    @RecordBuilder.Initializer("DEFAULT_MEMORY_POOLS") int memoryPools,
    @RecordBuilder.Initializer("DEFAULT_MEMORY_POOL_WAIT") Duration memoryPoolWait)
    implements EngineConfigBuilder.With {
  public static final long MIN_MEMORY = 64L << 20;

  /** Least engine memory {@link #defaults} gives: four pools of {@link #MIN_MEMORY}. */
  public static final long MIN_DEFAULT_MEMORY = 256L << 20;

  /** Most engine memory {@link #defaults} gives; more only when asked for. */
  public static final long MAX_DEFAULT_MEMORY = 32L << 30;

  public static final long MAX_MEMORY = 1L << 40;
  public static final int MAX_THREADS = 256;
  public static final long MAX_TEMP = 16L << 40;
  public static final int MIN_BATCH = 1024;
  public static final int MAX_BATCH = 1 << 20;
  public static final int MAX_SCAN_PARALLELISM = 64;
  public static final Duration DEFAULT_QUERY_TIMEOUT = Duration.ofMinutes(5);
  public static final Duration DEFAULT_MAX_QUERY_TIMEOUT = Duration.ofHours(1);
  public static final Duration DEFAULT_DURABLE_QUERY_TIMEOUT = Duration.ofHours(6);
  public static final Duration MIN_TIMEOUT = Duration.ofSeconds(1);
  public static final int DEFAULT_MEMORY_POOLS = 4;
  public static final int MAX_MEMORY_POOLS = 64;
  public static final Duration DEFAULT_MEMORY_POOL_WAIT = Duration.ofSeconds(30);
  public static final Duration MAX_MEMORY_POOL_WAIT = Duration.ofMinutes(10);

  public EngineConfig {
    requireNonNull(tempDirectory, "tempDirectory is null");
    Bounds.check("memoryLimitBytes", memoryLimitBytes, MIN_MEMORY, MAX_MEMORY);
    Bounds.check("threads", threads, 1, MAX_THREADS);
    Bounds.check("maxTempBytes", maxTempBytes, 0, MAX_TEMP);
    Bounds.check("batchSize", batchSize, MIN_BATCH, MAX_BATCH);
    Bounds.check("scanParallelism", scanParallelism, 1, MAX_SCAN_PARALLELISM);
    Bounds.check("snapshotCacheBytes", snapshotCacheBytes, 0, memoryLimitBytes / 2);
    requireNonNull(queryTimeout, "queryTimeout is null");
    requireNonNull(maxQueryTimeout, "maxQueryTimeout is null");
    requireNonNull(durableQueryTimeout, "durableQueryTimeout is null");
    Bounds.check("maxQueryTimeout", maxQueryTimeout, MIN_TIMEOUT, Duration.ofHours(24));
    Bounds.check("queryTimeout", queryTimeout, MIN_TIMEOUT, maxQueryTimeout);
    Bounds.check("durableQueryTimeout", durableQueryTimeout, MIN_TIMEOUT, Duration.ofDays(7));
    Bounds.check(
        "memoryPools",
        memoryPools,
        1,
        (int) Math.max(1, Math.min(MAX_MEMORY_POOLS, memoryLimitBytes / MIN_MEMORY)));
    requireNonNull(memoryPoolWait, "memoryPoolWait is null");
    Bounds.check("memoryPoolWait", memoryPoolWait, Duration.ZERO, MAX_MEMORY_POOL_WAIT);
  }

  /** The {@code memory_limit} of each pool: an equal share of {@link #memoryLimitBytes}. */
  public long poolMemoryBytes() {
    return memoryLimitBytes / memoryPools;
  }

  /** The {@code max_temp_directory_size} of each pool. */
  public long poolTempBytes() {
    return maxTempBytes / memoryPools;
  }

  /**
   * The snapshot-cache bytes each pool is guaranteed whatever the others hold; a pool may borrow
   * the rest of {@link #snapshotCacheBytes()} while the others do not use it (copies live in that
   * pool's memory and spill to its temp directory beyond it).
   */
  public long poolSnapshotCacheBytes() {
    return snapshotCacheBytes / memoryPools;
  }

  /** The original seven bounds, with default deadlines and one memory pool (shared by all). */
  public EngineConfig(
      long memoryLimitBytes,
      int threads,
      Path tempDirectory,
      long maxTempBytes,
      int batchSize,
      int scanParallelism,
      long snapshotCacheBytes) {
    this(
        memoryLimitBytes,
        threads,
        tempDirectory,
        maxTempBytes,
        batchSize,
        scanParallelism,
        snapshotCacheBytes,
        DEFAULT_QUERY_TIMEOUT,
        DEFAULT_MAX_QUERY_TIMEOUT,
        DEFAULT_DURABLE_QUERY_TIMEOUT,
        1,
        DEFAULT_MEMORY_POOL_WAIT);
  }

  /** The original six bounds, with the snapshot cache off. */
  public EngineConfig(
      long memoryLimitBytes,
      int threads,
      Path tempDirectory,
      long maxTempBytes,
      int batchSize,
      int scanParallelism) {
    this(memoryLimitBytes, threads, tempDirectory, maxTempBytes, batchSize, scanParallelism, 0);
  }

  /** This configuration with the three deadlines replaced. */
  public EngineConfig withTimeouts(Duration query, Duration maxQuery, Duration durableQuery) {
    return with()
        .queryTimeout(query)
        .maxQueryTimeout(maxQuery)
        .durableQueryTimeout(durableQuery)
        .build();
  }

  /** The snapshot cache an engine of {@code memoryLimitBytes} gets unless told: a quarter of it. */
  public static long defaultSnapshotCacheBytes(long memoryLimitBytes) {
    return memoryLimitBytes / 4;
  }

  /**
   * The engine memory unless told: a quarter of {@code totalMemoryBytes}, at least {@link
   * #MIN_DEFAULT_MEMORY} and at most {@link #MAX_DEFAULT_MEMORY}. A quarter, because the JVM's own
   * defaults take a quarter each for the heap and for direct (Arrow) memory, and DuckDB's native
   * use runs somewhat past its {@code memory_limit}; the CDK stack gives the same share explicitly.
   */
  public static long defaultMemoryBytes(long totalMemoryBytes) {
    return Math.max(MIN_DEFAULT_MEMORY, Math.min(MAX_DEFAULT_MEMORY, totalMemoryBytes / 4));
  }

  /**
   * The memory this process may use as the JVM reports it: the container's limit where one is set
   * (cgroup), else the machine's physical memory.
   */
  public static long totalMemoryBytes() {
    return ((OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean())
        .getTotalMemorySize();
  }

  /**
   * {@link #defaults(Path, long)} for the memory this process may use ({@link #totalMemoryBytes}).
   */
  public static EngineConfig defaults(Path tempDirectory) {
    return defaults(tempDirectory, totalMemoryBytes());
  }

  /**
   * A quarter of {@code totalMemoryBytes} as engine memory (256 MiB .. 32 GiB: 1 GiB on a 4 GiB
   * machine, 5.9 GiB on a 23.5 GiB one), as many threads as processors (at most 8), 4 GiB of spill,
   * 65,536-row batches, as many scan streams as threads, a snapshot cache of a quarter of the
   * memory, a 5 min interactive deadline (at most 1 h on request), a 6 h durable deadline, and 4
   * memory pools (a tenant's statements never fail for another tenant's memory use; at most 30 s of
   * waiting for a pool).
   */
  public static EngineConfig defaults(Path tempDirectory, long totalMemoryBytes) {
    int threads = Math.max(1, Math.min(8, Runtime.getRuntime().availableProcessors()));
    long memory = defaultMemoryBytes(totalMemoryBytes);
    return EngineConfigBuilder.builder()
        .memoryLimitBytes(memory)
        .threads(threads)
        .tempDirectory(tempDirectory)
        .maxTempBytes(4L << 30)
        .batchSize(65_536)
        .scanParallelism(threads)
        .snapshotCacheBytes(defaultSnapshotCacheBytes(memory))
        .memoryPools(DEFAULT_MEMORY_POOLS)
        .memoryPoolWait(DEFAULT_MEMORY_POOL_WAIT)
        .build();
  }
}
