package dev.lake.frontdoor;

import static org.assertj.core.api.Assertions.assertThat;

import dev.lake.core.AdmittedQuery;
import dev.lake.core.CacheStats;
import dev.lake.core.QueryEngine;
import dev.lake.core.QueryExecution;
import dev.lake.core.SnapshotSet;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.util.List;
import java.util.concurrent.atomic.AtomicReference;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.types.pojo.Schema;
import org.junit.jupiter.api.Test;

class EngineMetersTest {
  /** Our own port: an engine whose cache figures the test sets. */
  static final class FixedStats implements QueryEngine {
    final AtomicReference<CacheStats> stats = new AtomicReference<>(CacheStats.NONE);

    @Override
    public Schema plan(AdmittedQuery query, SnapshotSet snapshots) {
      throw new UnsupportedOperationException();
    }

    @Override
    public QueryExecution execute(
        AdmittedQuery query, List<Object> parameters, SnapshotSet s, BufferAllocator a) {
      throw new UnsupportedOperationException();
    }

    @Override
    public QueryExecution execute(
        AdmittedQuery query,
        List<Object> parameters,
        SnapshotSet s,
        BufferAllocator a,
        java.time.Duration timeout) {
      throw new UnsupportedOperationException();
    }

    @Override
    public Schema parameterTypes(AdmittedQuery query, SnapshotSet snapshots) {
      throw new UnsupportedOperationException();
    }

    @Override
    public QueryEngine forTenant(String tenant) {
      throw new UnsupportedOperationException();
    }

    @Override
    public java.util.Optional<java.time.Duration> maxInteractiveTimeout() {
      throw new UnsupportedOperationException();
    }

    @Override
    public java.util.Optional<dev.lake.core.job.ParquetCodec> parquet() {
      throw new UnsupportedOperationException();
    }

    @Override
    public dev.lake.core.SplitPlan splits(
        dev.lake.core.AdmittedQuery query,
        dev.lake.core.SnapshotSet snapshots,
        long targetRows,
        int maxSplits) {
      return dev.lake.core.SplitPlan.single(query, snapshots);
    }

    @Override
    public CacheStats cacheStats() {
      return stats.get();
    }

    @Override
    public void close() {}
  }

  @Test
  void scrape_readsTheEnginesCacheFigures_atEveryScrape() {
    // GIVEN an engine's caches bound to a Prometheus registry
    FixedStats engine = new FixedStats();
    PrometheusMeterRegistry meters = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
    EngineMeters.bind(meters, engine);
    assertThat(meters.scrape()).contains("lake_snapshot_cache_hits_total 0.0");

    // WHEN the engine's caches move
    engine.stats.set(new CacheStats(3, 17, 4096, 0, 5, 1024));

    // THEN the next scrape shows them, under stable names
    assertThat(meters.scrape())
        .contains("lake_snapshot_cache_copies_total 3.0")
        .contains("lake_snapshot_cache_hits_total 17.0")
        .contains("lake_snapshot_cache_bytes 4096.0")
        .contains("lake_result_reuse_hits_total 5.0")
        .contains("lake_result_reuse_bytes 1024.0");
  }
}
