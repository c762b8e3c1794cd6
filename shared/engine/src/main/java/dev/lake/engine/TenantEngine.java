package dev.lake.engine;

import static java.util.Objects.requireNonNull;

import dev.lake.core.AdmittedQuery;
import dev.lake.core.ForwardingQueryEngine;
import dev.lake.core.QueryEngine;
import dev.lake.core.QueryExecution;
import dev.lake.core.SnapshotSet;
import java.time.Duration;
import java.util.List;
import org.apache.arrow.memory.BufferAllocator;

/**
 * {@link DuckDbQueryEngine} as one tenant's statements see it: executions run in that tenant's
 * memory pool; everything else is the engine's. Owns nothing; {@link #close()} does nothing.
 */
final class TenantEngine extends ForwardingQueryEngine {
  private final DuckDbQueryEngine engine;
  private final String tenant;

  TenantEngine(DuckDbQueryEngine engine, String tenant) {
    this.engine = requireNonNull(engine, "engine is null");
    this.tenant = requireNonNull(tenant, "tenant is null");
  }

  @Override
  protected QueryEngine delegate() {
    return engine;
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

  /** The engine stays open: its owner closes it. */
  @Override
  public void close() {}
}
