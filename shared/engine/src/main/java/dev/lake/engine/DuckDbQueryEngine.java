package dev.lake.engine;

import static java.util.Objects.requireNonNull;

import dev.lake.core.AdmittedQuery;
import dev.lake.core.CacheStats;
import dev.lake.core.EmptyArrowReader;
import dev.lake.core.ErrorCode;
import dev.lake.core.FileScanSource;
import dev.lake.core.LakeException;
import dev.lake.core.QueryEngine;
import dev.lake.core.QueryExecution;
import dev.lake.core.SnapshotSet;
import dev.lake.core.SplitPlan;
import dev.lake.core.TableReader;
import dev.lake.core.TableRef;
import dev.lake.core.job.ParquetCodec;
import java.io.IOException;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.ipc.ArrowReader;
import org.apache.arrow.vector.types.pojo.Schema;
import org.duckdb.DuckDBConnection;

/**
 * One hardened in-memory DuckDB database; each statement runs on its own duplicated connection over
 * Arrow streams of exactly the sealed snapshots, or, when every table is a snapshot-cache copy, on
 * a pooled connection keeping the statement prepared ({@link PreparedConnections}). See
 * docs/engine.md.
 */
public final class DuckDbQueryEngine implements QueryEngine {
  private final EngineConfig config;

  /** The database that plans (never runs) statements; see the constructor. */
  private final EnginePool planning;

  /** The memory pools statements run in, one tenant per pool at a time. */
  private final TenantPools pools;

  private final SqlParser parser = new SqlParser();
  private final BufferAllocator planAllocator = new RootAllocator();
  private final AtomicLong ids = new AtomicLong();
  private final AtomicBoolean closed = new AtomicBoolean();
  private final QueryPlans plans;
  private final ParameterTypes parameterTypes;
  private final SplitShape splitShape;
  private DuckDbParquetCodec parquet;

  private final DeadlineTimer deadlines = new DeadlineTimer();

  public DuckDbQueryEngine(EngineConfig config, List<TableReader> readers) {
    this(config, readers, SnapshotCacheSettings.defaults());
  }

  /** As above, with the snapshot cache's fill and expiry settings (tests). */
  DuckDbQueryEngine(
      EngineConfig config, List<TableReader> readers, SnapshotCacheSettings cacheSettings) {
    this.config = requireNonNull(config, "config is null");
    List<TableReader> tableReaders = List.copyOf(requireNonNull(readers, "readers is null"));
    List<String> readable = FileScans.readableDirectories(tableReaders);
    EnginePool planDatabase = null;
    try {
      // planning renders LIMIT 0 over empty inputs: it needs next to no memory and never spills,
      // and it has a database of its own so that no tenant's pool can fail another's planning
      planDatabase =
          new EnginePool(
              EngineConfig.MIN_MEMORY,
              0,
              config.tempDirectory().resolve("plan"),
              config.threads(),
              readable,
              null,
              planAllocator,
              cacheSettings);
      pools = TenantPools.open(config, readable, planAllocator, cacheSettings);
    } catch (RuntimeException e) {
      DuckDbExecution.closeQuietly(planDatabase);
      parser.close();
      planAllocator.close();
      deadlines.close();
      throw e;
    }
    planning = planDatabase;
    this.plans =
        new QueryPlans(
            tableReaders, parser, config.batchSize(), config.scanParallelism(), pools::evict);
    this.parameterTypes = new ParameterTypes(tableReaders);
    this.splitShape = new SplitShape(parser);
  }

  /** See {@link SplitShape#splits}. */
  @Override
  public SplitPlan splits(
      AdmittedQuery query, SnapshotSet snapshots, long targetRows, int maxSplits) {
    requireOpen();
    return splitShape.splits(
        query, snapshots, targetRows, maxSplits, plans::resolveReader, q -> plan(q, snapshots));
  }

  /**
   * Typed by DuckDB over empty tables of the pinned snapshots' schemas; see {@link ParameterTypes}.
   */
  @Override
  public Schema parameterTypes(AdmittedQuery query, SnapshotSet snapshots) {
    requireOpen();
    return parameterTypes.parameters(query, snapshots);
  }

  @Override
  public Schema plan(AdmittedQuery query, SnapshotSet snapshots) {
    requireOpen();
    QueryPlan plan = plans.resolve(query, snapshots);
    Schema cached = plan.resultSchema();
    if (cached != null) {
      return cached;
    }
    Schema planned = planOnce(query, plan);
    // a result clients cannot read as DuckDB exports it is wrapped once, then planned again
    Optional<ResultShape> shape =
        plan.statement().explain() ? Optional.empty() : ResultShape.of(planned);
    if (shape.isPresent()) {
      plan.shape(shape.get());
      planned = planOnce(query, plan);
    }
    plan.resultSchema(planned);
    return planned;
  }

  private Schema planOnce(AdmittedQuery query, QueryPlan plan) {
    BufferAllocator child = planAllocator.newChildAllocator("plan", 0, Long.MAX_VALUE);
    Map<TableRef, List<ArrowReader>> inputs = new LinkedHashMap<>();
    for (TableRef ref : query.tables()) {
      inputs.put(ref, List.of(new EmptyArrowReader(child, plan.schema(ref))));
    }
    // the statement renders with LIMIT 0: DuckDB plans an empty result over empty inputs, so the
    // schema costs what the plan costs, never what the data or a generator would
    try (DuckDbExecution execution =
        open(
            planning,
            query,
            plan,
            new QueryInputs.Sources(inputs, Map.of()),
            List.of(),
            Map.of(),
            null,
            child,
            "lake_p0",
            true,
            config.queryTimeout(),
            new ExecutionAccounting(null))) {
      return execution.reader().getVectorSchemaRoot().getSchema();
    } catch (IOException e) {
      throw new LakeException(ErrorCode.QUERY_FAILED, "Cannot plan the statement", e);
    }
  }

  /**
   * Runs in the pool of the tenant named "" (callers that name no tenant share it); the front door
   * and the durable worker execute through {@link #forTenant}.
   */
  @Override
  public QueryExecution execute(
      AdmittedQuery query,
      List<Object> parameters,
      SnapshotSet snapshots,
      BufferAllocator allocator) {
    return execute(NO_TENANT, query, parameters, snapshots, allocator, config.queryTimeout());
  }

  /** As {@link #execute(AdmittedQuery, List, SnapshotSet, BufferAllocator)}, with a deadline. */
  @Override
  public QueryExecution execute(
      AdmittedQuery query,
      List<Object> parameters,
      SnapshotSet snapshots,
      BufferAllocator allocator,
      Duration timeout) {
    return execute(NO_TENANT, query, parameters, snapshots, allocator, timeout);
  }

  /** The interactive deadline applied when the caller names none. */
  Duration defaultTimeout() {
    return config.queryTimeout();
  }

  /** The pool key of statements executed without {@link #forTenant}. */
  static final String NO_TENANT = "";

  /** Statements executed through the view run in {@code tenant}'s memory pool. */
  @Override
  public QueryEngine forTenant(String tenant) {
    requireNonNull(tenant, "tenant is null");
    return new TenantEngine(this, tenant);
  }

  @Override
  public Optional<Duration> maxInteractiveTimeout() {
    return Optional.of(config.maxQueryTimeout());
  }

  /**
   * Runs {@code query} in {@code tenant}'s memory pool (waiting for one at most {@link
   * EngineConfig#memoryPoolWait()} and never past the deadline); the execution holds the pool until
   * it is closed.
   */
  QueryExecution execute(
      String tenant,
      AdmittedQuery query,
      List<Object> parameters,
      SnapshotSet snapshots,
      BufferAllocator allocator,
      Duration timeout) {
    requireNonNull(tenant, "tenant is null");
    requireNonNull(parameters, "parameters is null");
    requireNonNull(timeout, "timeout is null");
    requireOpen();
    if (timeout.isNegative() || timeout.isZero()) {
      throw new LakeException(ErrorCode.INVALID_ARGUMENT, "A query timeout must be positive");
    }
    QueryPlan plan = plans.resolve(query, snapshots);
    if (plan.resultSchema() == null) {
      plan(query, snapshots); // decides the result's shape (ResultShape) before it runs
    }
    TenantPools.Lease pool =
        pools.acquire(
            tenant,
            timeout.compareTo(config.memoryPoolWait()) < 0 ? timeout : config.memoryPoolWait());
    BufferAllocator child;
    try {
      child =
          allocator.newChildAllocator("query-" + ids.incrementAndGet(), 0, allocator.getLimit());
    } catch (RuntimeException e) {
      pool.close();
      throw e;
    }
    // the pool lease ends with the execution, after its connection closed
    List<AutoCloseable> leases = new ArrayList<>(List.of(pool));
    ExecutionAccounting accounting = new ExecutionAccounting(pool.pool().gauge());
    TableInputs.Gathered inputs =
        TableInputs.gather(
            query,
            snapshots,
            plan,
            plans,
            pool.pool().snapshotCache(),
            config,
            child,
            leases,
            accounting);
    return open(
        pool.pool(),
        query,
        plan,
        inputs.sources(),
        leases,
        inputs.cachedNames(),
        parameters,
        child,
        "lake_q0",
        false,
        timeout,
        accounting);
  }

  /**
   * Opens a connection, registers {@code inputs} (owning them and the leases), prepares. A
   * statement with no Arrow-stream inputs of its own (every table a snapshot-cache copy in the
   * pool's database, or a file scan, whose text names immutable files: {@link
   * FileScanSource.FileScan#sql}) renders to the same text for the same data and runs on a pooled
   * connection that may have prepared it before; the file scans' leases still end with the
   * execution.
   */
  private DuckDbExecution open(
      EnginePool pool,
      AdmittedQuery query,
      QueryPlan plan,
      QueryInputs.Sources inputs,
      List<AutoCloseable> leases,
      Map<TableRef, String> cachedNames,
      List<Object> parameters,
      BufferAllocator child,
      String prefix,
      boolean planning,
      Duration timeout,
      ExecutionAccounting accounting) {
    DuckDbExecution.Limits limits =
        new DuckDbExecution.Limits(
            config.poolMemoryBytes(), config.poolTempBytes(), config.memoryPools(), timeout);
    boolean pooled = !planning && inputs.streams().isEmpty();
    DuckDBConnection connection = null;
    QueryInputs registered;
    if (pooled) {
      // nothing to register (no connection needed): it only takes ownership of the leases
      registered = new QueryInputs(null, prefix, inputs, Set.of(), child, leases);
    } else {
      try {
        connection = pool.database().duplicate();
      } catch (SQLException e) {
        for (List<ArrowReader> list : inputs.streams().values()) {
          list.forEach(DuckDbExecution::closeQuietly);
        }
        leases.forEach(DuckDbExecution::closeQuietly);
        child.close();
        throw EngineErrors.setupFailure("Cannot open a query connection", e);
      }
      try {
        registered =
            new QueryInputs(connection, prefix, inputs, plan.rereadTables(), child, leases);
      } catch (RuntimeException e) {
        DuckDbExecution.closeQuietly(connection);
        child.close();
        throw e;
      }
    }
    PreparedConnections.Lease lease;
    try {
      String sql =
          plan.render(
              targets(query, cachedNames, registered.views(), inputs.fileScans()),
              inputs.fileScans(),
              parser,
              planning);
      lease =
          pooled ? pool.statements().acquire(sql) : PreparedConnections.unpooled(connection, sql);
    } catch (SQLException | RuntimeException e) {
      DuckDbExecution.closeQuietly(connection);
      registered.close();
      child.close();
      throw e instanceof RuntimeException r ? r : EngineErrors.failure(e, false, limits);
    }
    DuckDbExecution execution =
        DuckDbExecution.open(
            lease, parameters, child, config.batchSize(), registered, limits, accounting);
    execution.deadline(deadlines.schedule(execution::expire, timeout));
    return execution;
  }

  /**
   * Each table's input name: its snapshot-cache copy, else its registered view; file scans have
   * none (the statement inlines them).
   */
  private static Map<TableRef, String> targets(
      AdmittedQuery query,
      Map<TableRef, String> cachedNames,
      Map<TableRef, String> views,
      Map<TableRef, String> fileScans) {
    Map<TableRef, String> targets = new LinkedHashMap<>();
    for (TableRef ref : query.tables()) {
      String name = cachedNames.get(ref);
      if (name != null || !fileScans.containsKey(ref)) {
        targets.put(ref, name != null ? name : views.get(ref));
      }
    }
    return targets;
  }

  /** The snapshot caches' counters over every pool (all zero with the cache off). */
  @Override
  public CacheStats cacheStats() {
    return pools.cacheStats();
  }

  /** The first pool's snapshot cache (where statements of one tenant run), or null; for tests. */
  SnapshotCache snapshotCacheForTest() {
    return pools.pool(0).snapshotCache();
  }

  /** A fresh connection to the first pool's database, for tests of the hardening. */
  DuckDBConnection connectionForTest() throws SQLException {
    return pools.pool(0).database().duplicate();
  }

  /** The memory pools, for tests. */
  TenantPools poolsForTest() {
    return pools;
  }

  /**
   * A call after {@link #close()} (a request racing shutdown) is refused before touching DuckDB.
   */
  private void requireOpen() {
    if (closed.get()) {
      throw new LakeException(ErrorCode.OVERLOADED, "The query engine is closed");
    }
  }

  /** A private DuckDB instance staging in {@code <temp>/parquet-results}, started on first use. */
  @Override
  public synchronized Optional<ParquetCodec> parquet() {
    requireOpen();
    if (parquet == null) {
      parquet = new DuckDbParquetCodec(config.tempDirectory().resolve("parquet-results"));
    }
    return Optional.of(parquet);
  }

  /** How many execution deadlines are waiting to fire (tests: finished statements leave none). */
  int pendingDeadlines() {
    return deadlines.pending();
  }

  /** Releases DuckDB, the Parquet codec and the plan allocator once; a second call does nothing. */
  @Override
  public void close() {
    if (!closed.compareAndSet(false, true)) {
      return;
    }
    synchronized (this) {
      DuckDbExecution.closeQuietly(parquet);
    }
    pools.close();
    plans.invalidateAll();
    deadlines.close();
    planning.close();
    parser.close();
    planAllocator.close();
  }
}
