package dev.lake.sandbox;

import dev.lake.engine.DuckDbQueryEngine;
import dev.lake.engine.EngineConfig;
import dev.lake.engine.EngineConfigBuilder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.apache.arrow.memory.RootAllocator;

/**
 * An engine process for the tests: a real DuckDB engine without table readers (statements over
 * {@code range()} and constants), one pool of {@code args[1]} MiB. Arguments: socket, memory MiB.
 */
public final class TestEngineMain {
  private TestEngineMain() {}

  public static void main(String[] args) throws Exception {
    Path socket = Path.of(args[0]);
    EngineHost.settingsLine(System.in);
    long memory = Long.parseLong(args[1]) << 20;
    Path spill = Files.createTempDirectory("lake-sandbox-test-spill");
    EngineConfig config =
        EngineConfigBuilder.builder(EngineConfig.defaults(spill))
            .memoryLimitBytes(memory)
            .memoryPools(1)
            .snapshotCacheBytes(0)
            .threads(2)
            .build();
    try (RootAllocator allocator = new RootAllocator();
        DuckDbQueryEngine engine = new DuckDbQueryEngine(config, List.of())) {
      EngineHost.serve(engine, allocator, socket, System.in);
    }
    System.exit(0);
  }
}
