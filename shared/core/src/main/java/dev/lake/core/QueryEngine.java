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
 *
 * <p>The port fails closed: no method has a default, so an engine (or a decorator: extend {@link
 * ForwardingQueryEngine}) states what it does with deadlines, tenants and statistics instead of
 * inheriting a default that silently drops them. Everything crossing it is a record of strings,
 * numbers, Arrow schemas and batches, so an engine may live in another process.
 */
public interface QueryEngine extends AutoCloseable {
  /** The result schema of {@code query}, computed without reading table data. */
  Schema plan(AdmittedQuery query, SnapshotSet snapshots);

  /**
   * The Arrow types of {@code query}'s {@code ?} / {@code $n} placeholders in order, as the engine
   * will bind them (clients build their parameter vectors from it); an empty schema when it has
   * none. Reads no table data.
   */
  Schema parameterTypes(AdmittedQuery query, SnapshotSet snapshots);

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
   * (a client's {@code x-lake-timeout-ms}, the durable tier's): once {@code timeout} has passed
   * since this call the execution is interrupted and a pending or later pull fails with {@code
   * DEADLINE_EXCEEDED}.
   */
  QueryExecution execute(
      AdmittedQuery query,
      List<Object> parameters,
      SnapshotSet snapshots,
      BufferAllocator allocator,
      Duration timeout);

  /**
   * This engine as {@code tenant}'s statements see it: an engine that isolates tenants (the DuckDB
   * engine's memory pools) runs statements executed through the view apart from other tenants', so
   * one tenant exhausting its memory never fails another tenant's statement. Callers never close
   * the view (the engine owns what it uses).
   */
  QueryEngine forTenant(String tenant);

  /**
   * The longest interactive deadline a caller may ask for with {@link #execute(AdmittedQuery, List,
   * SnapshotSet, BufferAllocator, Duration)}; empty when this engine enforces no deadline of its
   * own (test fakes). The durable tier's deadline is not bounded by it.
   */
  Optional<Duration> maxInteractiveTimeout();

  /**
   * The codec that stores durable results as Parquet and decodes them for download, if this engine
   * offers one: a private instance of the engine's library that never runs a tenant statement (so
   * its file access opens no door to user SQL). Engines without one (test fakes) return empty, and
   * Parquet results then fail {@code UNSUPPORTED}.
   */
  Optional<ParquetCodec> parquet();

  /**
   * What this engine's caches did since it started, for meters; cheap enough to call on every
   * scrape ({@link CacheStats#NONE} for engines without caches).
   */
  CacheStats cacheStats();

  /**
   * How {@code query} runs as durable fan-out over at most {@code maxSplits} disjoint splits of
   * {@code snapshots} of about {@code targetRows} rows each (see {@link SplitSource} and {@link
   * SplitPlan}), such that the result is exactly its result over {@code snapshots}: a statement
   * that is row-local over its one table (projection and filter) splits as it is; one with a {@code
   * LIMIT} (optionally ordered by output columns) or with aggregates that decompose
   * (count/sum/min/max/avg, grouped by columns) splits with a combine step. Anything else (a join,
   * subquery, window, DISTINCT, HAVING, …) is {@link SplitPlan#single} (also engines without
   * splits, test fakes). Reads table metadata only; throws like a scan ({@code SNAPSHOT_GONE}).
   */
  SplitPlan splits(AdmittedQuery query, SnapshotSet snapshots, long targetRows, int maxSplits);

  @Override
  void close();
}
