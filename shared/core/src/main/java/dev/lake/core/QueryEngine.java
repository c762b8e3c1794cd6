package dev.lake.core;

import dev.lake.core.job.ParquetCodec;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.types.pojo.Schema;

/**
 * Plans and runs admitted statements over exactly the snapshots in a {@link SnapshotSet}. The
 * engine never resolves tables itself.
 */
public interface QueryEngine extends AutoCloseable {
  /** The result schema of {@code query}, computed without reading table data. */
  Schema plan(AdmittedQuery query, SnapshotSet snapshots);

  /**
   * Starts {@code query} with positional {@code parameters} bound to its {@code ?} / {@code $n}
   * placeholders (null, Boolean, Long, Double, BigDecimal, String, LocalDate, LocalDateTime);
   * batches are produced incrementally as the caller pulls them. The caller closes the execution,
   * which also stops it. The engine's default interactive deadline applies.
   */
  QueryExecution execute(
      AdmittedQuery query,
      List<Object> parameters,
      SnapshotSet snapshots,
      BufferAllocator allocator);

  /**
   * {@link #execute(AdmittedQuery, List, SnapshotSet, BufferAllocator)} with an explicit deadline
   * (e.g. the durable tier's): once {@code timeout} has passed since this call the execution is
   * interrupted and a pending or later pull fails with {@code DEADLINE_EXCEEDED}. Engines that
   * enforce no deadline of their own (test fakes) may ignore it.
   */
  default QueryExecution execute(
      AdmittedQuery query,
      List<Object> parameters,
      SnapshotSet snapshots,
      BufferAllocator allocator,
      Duration timeout) {
    return execute(query, parameters, snapshots, allocator);
  }

  /**
   * This engine as {@code tenant}'s statements see it: an engine that isolates tenants (the DuckDB
   * engine's memory pools) runs statements executed through the view apart from other tenants', so
   * one tenant exhausting its memory never fails another tenant's statement. Callers never close
   * the view (the engine owns what it uses). The default (engines without isolation, test fakes) is
   * this engine.
   */
  default QueryEngine forTenant(String tenant) {
    java.util.Objects.requireNonNull(tenant, "tenant is null");
    return this;
  }

  /**
   * The longest interactive deadline a caller may ask for with {@link #execute(AdmittedQuery, List,
   * SnapshotSet, BufferAllocator, Duration)}; empty when this engine enforces no deadline of its
   * own (test fakes). The durable tier's deadline is not bounded by it.
   */
  default Optional<Duration> maxInteractiveTimeout() {
    return Optional.empty();
  }

  /**
   * The codec that stores durable results as Parquet and decodes them for download, if this engine
   * offers one: a private instance of the engine's library that never runs a tenant statement (so
   * its file access opens no door to user SQL). Engines without one (test fakes) return empty, and
   * Parquet results then fail {@code UNSUPPORTED}.
   */
  default Optional<ParquetCodec> parquet() {
    return Optional.empty();
  }

  /**
   * What this engine's caches did since it started, for meters; cheap enough to call on every
   * scrape. Engines without caches (test fakes) return {@link CacheStats#NONE}.
   */
  default CacheStats cacheStats() {
    return CacheStats.NONE;
  }

  @Override
  void close();
}
