package dev.lake.core;

import dev.lake.core.job.ParquetCodec;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.types.pojo.Schema;

/**
 * A {@link QueryEngine} that forwards every call to {@link #delegate()}: decorators (tenant views,
 * result reuse, test fakes) override only what they change, and a method added to the port is
 * forwarded here once instead of being forgotten in one of them.
 */
public abstract class ForwardingQueryEngine implements QueryEngine {
  /** The engine every call not overridden goes to. */
  protected abstract QueryEngine delegate();

  @Override
  public Schema plan(AdmittedQuery query, SnapshotSet snapshots) {
    return delegate().plan(query, snapshots);
  }

  @Override
  public Schema parameterTypes(AdmittedQuery query, SnapshotSet snapshots) {
    return delegate().parameterTypes(query, snapshots);
  }

  @Override
  public QueryExecution execute(
      AdmittedQuery query,
      List<Object> parameters,
      SnapshotSet snapshots,
      BufferAllocator allocator) {
    return delegate().execute(query, parameters, snapshots, allocator);
  }

  @Override
  public QueryExecution execute(
      AdmittedQuery query,
      List<Object> parameters,
      SnapshotSet snapshots,
      BufferAllocator allocator,
      Duration timeout) {
    return delegate().execute(query, parameters, snapshots, allocator, timeout);
  }

  @Override
  public QueryEngine forTenant(String tenant) {
    return delegate().forTenant(tenant);
  }

  @Override
  public Optional<Duration> maxInteractiveTimeout() {
    return delegate().maxInteractiveTimeout();
  }

  @Override
  public Optional<ParquetCodec> parquet() {
    return delegate().parquet();
  }

  @Override
  public CacheStats cacheStats() {
    return delegate().cacheStats();
  }

  @Override
  public SplitPlan splits(
      AdmittedQuery query, SnapshotSet snapshots, long targetRows, int maxSplits) {
    return delegate().splits(query, snapshots, targetRows, maxSplits);
  }

  @Override
  public void close() {
    delegate().close();
  }
}
