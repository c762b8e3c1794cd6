package dev.lake.frontdoor;

import static java.util.Objects.requireNonNull;

import dev.lake.core.CacheStats;
import dev.lake.core.QueryEngine;
import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import java.util.function.ToDoubleFunction;

/**
 * The engine's caches as meters, read from {@link QueryEngine#cacheStats()} at every scrape (no
 * work on the query path): whether the snapshot cache (on by default) and exact result reuse serve
 * what they should is visible to operators, not only to the bench. Prometheus names: {@code
 * lake_snapshot_cache_copies_total}, {@code lake_snapshot_cache_hits_total}, {@code
 * lake_snapshot_cache_bytes}, {@code lake_result_reuse_hits_total}, {@code
 * lake_result_reuse_bytes}.
 */
public final class EngineMeters {
  private EngineMeters() {}

  public static void bind(MeterRegistry meters, QueryEngine engine) {
    requireNonNull(meters, "meters is null");
    requireNonNull(engine, "engine is null");
    counter(
        meters,
        engine,
        "lake.snapshot.cache.copies",
        "snapshot-cache copies made",
        s -> s.snapshotCopies());
    counter(
        meters,
        engine,
        "lake.snapshot.cache.hits",
        "table reads answered from a snapshot-cache copy",
        s -> s.snapshotHits());
    gauge(
        meters,
        engine,
        "lake.snapshot.cache.bytes",
        "bytes of snapshot-cache copies held",
        s -> s.snapshotBytes());
    counter(
        meters,
        engine,
        "lake.result.reuse.hits",
        "statements answered from a stored result",
        s -> s.resultHits());
    gauge(
        meters,
        engine,
        "lake.result.reuse.bytes",
        "bytes of stored results held",
        s -> s.resultBytes());
  }

  private static void counter(
      MeterRegistry meters,
      QueryEngine engine,
      String name,
      String description,
      ToDoubleFunction<CacheStats> value) {
    FunctionCounter.builder(name, engine, e -> value.applyAsDouble(e.cacheStats()))
        .description(description)
        .register(meters);
  }

  private static void gauge(
      MeterRegistry meters,
      QueryEngine engine,
      String name,
      String description,
      ToDoubleFunction<CacheStats> value) {
    Gauge.builder(name, engine, e -> value.applyAsDouble(e.cacheStats()))
        .description(description)
        .baseUnit("bytes")
        .register(meters);
  }
}
