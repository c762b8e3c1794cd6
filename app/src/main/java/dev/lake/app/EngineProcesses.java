package dev.lake.app;

import dev.lake.core.QueryEngine;
import dev.lake.engine.DuckDbParquetCodec;
import dev.lake.engine.EngineConfig;
import dev.lake.engine.EngineConfigBuilder;
import dev.lake.sandbox.EngineLaunch;
import dev.lake.sandbox.EngineSupervisor;
import dev.lake.sandbox.SandboxConfig;
import dev.lake.sandbox.SandboxedQueryEngine;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The sandboxed engine of a {@link RuntimeConfig}: one engine process ({@link EngineProcessMain})
 * per memory pool, each a one-pool DuckDB engine with the pool's share of the engine memory, spill
 * and snapshot cache, under the ceiling {@link SandboxConfig#ceilingFor} gives the pool. Durable
 * results' Parquet codec stays in this process (it never runs tenant SQL).
 */
final class EngineProcesses {
  private EngineProcesses() {}

  static QueryEngine engine(RuntimeConfig config) {
    EngineConfig all = config.engine();
    int pools = all.memoryPools();
    EngineConfig one = perProcess(all);
    SandboxConfig sandbox = config.sandbox();
    EngineSpec spec = new EngineSpec(one, config.registry(), config.aws(), config.formatSettings());
    EngineSupervisor supervisor =
        new EngineSupervisor(
            sandbox,
            new EngineLaunch(EngineProcessMain.class.getName(), List.of(), Map.of(), spec.toLine()),
            pools,
            sandbox.ceilingFor(one.memoryLimitBytes()));
    return new SandboxedQueryEngine(
        supervisor,
        new SandboxedQueryEngine.Limits(
            all.queryTimeout(), all.maxQueryTimeout(), all.memoryPoolWait()),
        Optional.of(new DuckDbParquetCodec(all.tempDirectory().resolve("parquet-results"))));
  }

  /** One pool's share of {@code all}: its memory and spill, and a snapshot cache of its own. */
  static EngineConfig perProcess(EngineConfig all) {
    int pools = all.memoryPools();
    return EngineConfigBuilder.builder(all)
        .memoryLimitBytes(all.poolMemoryBytes())
        .maxTempBytes(all.maxTempBytes() / pools)
        // a tenant alone used to borrow the whole cache budget across pools; a process cannot
        // borrow from another, so each may cache up to the budget within half its own memory
        .snapshotCacheBytes(Math.min(all.snapshotCacheBytes(), all.poolMemoryBytes() / 2))
        .memoryPools(1)
        .build();
  }
}
