package dev.lake.sandbox;

import static java.util.Objects.requireNonNull;

import dev.lake.core.AdmittedQuery;
import dev.lake.core.CacheStats;
import dev.lake.core.ErrorCode;
import dev.lake.core.LakeException;
import dev.lake.core.QueryEngine;
import dev.lake.core.QueryExecution;
import dev.lake.core.SnapshotSet;
import dev.lake.core.SplitPlan;
import dev.lake.core.job.ParquetCodec;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.types.pojo.Schema;

/**
 * A {@link QueryEngine} whose every statement, planning included, runs in an engine process of an
 * {@link EngineSupervisor}: {@link #forTenant} views route a tenant's statements to the process its
 * slot holds. Planning is bounded by {@link SandboxConfig#planningTimeout()}, execution by its
 * deadline, each plus the grace before the process is killed. Closing the root engine closes the
 * supervisor (and every process); views never close anything.
 */
public final class SandboxedQueryEngine implements QueryEngine {
  /** The tenant of statements run on the root engine rather than a tenant view. */
  static final String NO_TENANT = "";

  private final EngineSupervisor supervisor;
  private final Limits limits;
  private final Optional<ParquetCodec> parquet;
  private final String tenant;

  /**
   * The deadlines this engine applies (the same the engine process applies itself).
   *
   * @param queryTimeout the default interactive deadline
   * @param maxQueryTimeout the longest interactive deadline a caller may ask for
   * @param poolWait the longest wait for a slot while every slot runs other tenants' statements
   */
  public record Limits(Duration queryTimeout, Duration maxQueryTimeout, Duration poolWait) {
    public Limits {
      requireNonNull(queryTimeout, "queryTimeout is null");
      requireNonNull(maxQueryTimeout, "maxQueryTimeout is null");
      requireNonNull(poolWait, "poolWait is null");
    }
  }

  public SandboxedQueryEngine(
      EngineSupervisor supervisor, Limits limits, Optional<ParquetCodec> parquet) {
    this(supervisor, limits, parquet, NO_TENANT);
  }

  private SandboxedQueryEngine(
      EngineSupervisor supervisor, Limits limits, Optional<ParquetCodec> parquet, String tenant) {
    this.supervisor = requireNonNull(supervisor, "supervisor is null");
    this.limits = requireNonNull(limits, "limits is null");
    this.parquet = requireNonNull(parquet, "parquet is null");
    this.tenant = requireNonNull(tenant, "tenant is null");
  }

  /** The supervisor's figures (processes, kills, resident memory). */
  public EngineSupervisor.Figures figures() {
    return supervisor.figures();
  }

  @Override
  public Schema plan(AdmittedQuery query, SnapshotSet snapshots) {
    return describe(Wire.Op.PLAN, query, snapshots);
  }

  @Override
  public Schema parameterTypes(AdmittedQuery query, SnapshotSet snapshots) {
    return describe(Wire.Op.PARAMETER_TYPES, query, snapshots);
  }

  /** Splitting reads table metadata in the tenant's engine process, bounded like planning. */
  @Override
  public SplitPlan splits(
      AdmittedQuery query, SnapshotSet snapshots, long targetRows, int maxSplits) {
    EngineCall call =
        EngineCall.open(
            supervisor,
            tenant,
            Wire.splitsRequest(tenant, query, snapshots, targetRows, maxSplits),
            supervisor.config().planningTimeout(),
            planningOverrun(supervisor.config().planningTimeout()));
    try {
      SplitPlan splits = Wire.splits(call.reply());
      call.finish();
      return splits;
    } finally {
      call.abandon();
    }
  }

  private static LakeException planningOverrun(Duration timeout) {
    return new LakeException(
        ErrorCode.DEADLINE_EXCEEDED,
        "Planning the statement took longer than "
            + EngineCall.human(timeout)
            + " and was stopped (--engine-planning-timeout); simplify its constant"
            + " expressions");
  }

  /** Planning in the tenant's engine process, bounded by the planning timeout plus the grace. */
  private Schema describe(Wire.Op op, AdmittedQuery query, SnapshotSet snapshots) {
    Duration timeout = supervisor.config().planningTimeout();
    LakeException overrun = planningOverrun(timeout);
    EngineCall call =
        EngineCall.open(
            supervisor,
            tenant,
            Wire.request(op, tenant, query, snapshots, List.of(), Optional.empty()),
            timeout,
            overrun);
    try {
      Schema schema = Wire.schema(call.reply());
      call.finish();
      return schema;
    } catch (java.io.IOException e) {
      throw new LakeException(ErrorCode.INTERNAL, "The engine sent an unreadable schema", e);
    } finally {
      call.abandon();
    }
  }

  @Override
  public QueryExecution execute(
      AdmittedQuery query,
      List<Object> parameters,
      SnapshotSet snapshots,
      BufferAllocator allocator) {
    return run(query, parameters, snapshots, allocator, limits.queryTimeout(), false);
  }

  @Override
  public QueryExecution execute(
      AdmittedQuery query,
      List<Object> parameters,
      SnapshotSet snapshots,
      BufferAllocator allocator,
      Duration timeout) {
    return run(query, parameters, snapshots, allocator, timeout, true);
  }

  private QueryExecution run(
      AdmittedQuery query,
      List<Object> parameters,
      SnapshotSet snapshots,
      BufferAllocator allocator,
      Duration timeout,
      boolean explicit) {
    requireNonNull(allocator, "allocator is null");
    EngineCall call =
        EngineCall.open(
            supervisor,
            tenant,
            Wire.request(
                Wire.Op.EXECUTE,
                tenant,
                query,
                snapshots,
                parameters,
                explicit ? Optional.of(timeout) : Optional.empty()),
            timeout,
            EngineCall.deadline(timeout));
    // returns before the engine's header: the statement may compute its first batch for long, and
    // its caller must be able to cancel it meanwhile (RemoteExecution reads the header first)
    return new RemoteExecution(call, allocator);
  }

  @Override
  public QueryEngine forTenant(String tenant) {
    requireNonNull(tenant, "tenant is null");
    return new SandboxedQueryEngine(supervisor, limits, parquet, tenant);
  }

  @Override
  public Optional<Duration> maxInteractiveTimeout() {
    return Optional.of(limits.maxQueryTimeout());
  }

  @Override
  public Optional<ParquetCodec> parquet() {
    return parquet;
  }

  /** The engine processes' cache figures summed (a process that does not answer adds nothing). */
  @Override
  public CacheStats cacheStats() {
    long[] sum = new long[6];
    for (EngineProcess p : supervisor.live()) {
      try (var channel = p.connect()) {
        Frames.write(channel, Wire.statsRequest());
        Optional<com.fasterxml.jackson.databind.JsonNode> reply = Frames.read(channel);
        if (reply.isPresent()) {
          CacheStats c = Wire.cache(reply.get());
          sum[0] += c.snapshotCopies();
          sum[1] += c.snapshotHits();
          sum[2] += c.snapshotBytes();
          sum[3] += c.snapshotCopiesPending();
          sum[4] += c.resultHits();
          sum[5] += c.resultBytes();
        }
      } catch (java.io.IOException | RuntimeException e) {
        // a process starting, dying or busy: its figures are missing from this scrape
      }
    }
    return new CacheStats(sum[0], sum[1], sum[2], sum[3], sum[4], sum[5]);
  }

  @Override
  public void close() {
    if (tenant.equals(NO_TENANT)) {
      supervisor.close();
      parquet.ifPresent(
          p -> {
            try {
              p.close();
            } catch (Exception e) {
              // closing on shutdown
            }
          });
    }
  }
}
