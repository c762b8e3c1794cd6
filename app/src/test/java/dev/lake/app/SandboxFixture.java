package dev.lake.app;

import dev.lake.core.DataLocations;
import dev.lake.core.local.FileRegistry;
import dev.lake.engine.EngineConfig;
import dev.lake.engine.EngineConfigBuilder;
import dev.lake.lance.demo.TpchDemo;
import dev.lake.sandbox.SandboxConfig;
import java.nio.file.Files;
import java.nio.file.Path;
import org.apache.arrow.memory.RootAllocator;

/** Small engine-process setups shared by this package's sandbox tests and benches. */
final class SandboxFixture {
  private SandboxFixture() {}

  /** TPC-H at SF 0.01 under {@code dir} (made once) in a file registry; the registry's path. */
  static Path tpch(Path dir) {
    Path registry = dir.resolve("registry.json");
    if (!Files.exists(registry)) {
      try (RootAllocator allocator = new RootAllocator()) {
        TpchDemo.generate(dir.resolve("data"), 0.01, new FileRegistry(registry), allocator);
      }
    }
    return registry;
  }

  /** {@code pools} pools of 128 MiB DuckDB memory, one thread, no snapshot cache. */
  static EngineConfig engine(Path dir, int pools) {
    return EngineConfigBuilder.builder(EngineConfig.defaults(dir.resolve("spill")))
        .memoryLimitBytes(pools * (128L << 20))
        .memoryPools(pools)
        .snapshotCacheBytes(0)
        .threads(1)
        .build();
  }

  /** A runtime over {@link #tpch}'s registry under {@code dir} with these engine settings. */
  static LakeRuntime start(Path dir, EngineConfig engine, SandboxConfig sandbox) {
    return LakeRuntime.start(
        RuntimeConfig.builder(
                RegistrySource.file(tpch(dir)),
                new KeySource.CreatedFile(dir.resolve("keyring.json")),
                engine)
            .formatSettings(java.util.List.of(DataLocations.of(dir.resolve("data"))))
            .sandbox(sandbox)
            .build());
  }

  /** Process isolation with a hard ceiling and a 128 MiB engine heap; the rest as shipped. */
  static SandboxConfig processes(long ceilingBytes) {
    SandboxConfig d = SandboxConfig.defaults();
    return new SandboxConfig(
        SandboxConfig.Isolation.PROCESS,
        ceilingBytes,
        128L << 20,
        d.grace(),
        d.planningTimeout(),
        d.watchdogInterval(),
        d.startTimeout(),
        true);
  }
}
