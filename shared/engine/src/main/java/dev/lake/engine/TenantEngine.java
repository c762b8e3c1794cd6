package dev.lake.engine;

import static java.util.Objects.requireNonNull;

import dev.lake.core.AdmittedQuery;
import dev.lake.core.QueryEngine;
import dev.lake.core.QueryExecution;
import dev.lake.core.SnapshotSet;
import dev.lake.core.job.ParquetCodec;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.types.pojo.Schema;

/**
 * {@link DuckDbQueryEngine} as one tenant's statements see it: executions run in that tenant's
 * memory pool. Owns nothing; {@link #close()} does nothing.
 */
final class TenantEngine implements QueryEngine {
  private final DuckDbQueryEngine engine;
  private final String tenant;

  TenantEngine(DuckDbQueryEngine engine, String tenant) {
    this.engine = requireNonNull(engine, "engine is null");
    this.tenant = requireNonNull(tenant, "tenant is null");
  }

  @Override
  public Schema plan(AdmittedQuery query, SnapshotSet snapshots) {
    return engine.plan(query, snapshots);
  }

  @Override
  public QueryExecution execute(
      AdmittedQuery query,
      List<Object> parameters,
      SnapshotSet snapshots,
      BufferAllocator allocator) {
    return engine.execute(tenant, query, parameters, snapshots, allocator, engine.defaultTimeout());
  }

  @Override
  public QueryExecution execute(
      AdmittedQuery query,
      List<Object> parameters,
      SnapshotSet snapshots,
      BufferAllocator allocator,
      Duration timeout) {
    return engine.execute(tenant, query, parameters, snapshots, allocator, timeout);
  }

  @Override
  public QueryEngine forTenant(String other) {
    return engine.forTenant(other);
  }

  @Override
  public Optional<Duration> maxInteractiveTimeout() {
    return engine.maxInteractiveTimeout();
  }

  @Override
  public Optional<ParquetCodec> parquet() {
    return engine.parquet();
  }

  /** The engine stays open: its owner closes it. */
  @Override
  public void close() {}
}
