package dev.lake.frontdoor;

import dev.lake.engine.EngineConfig;
import java.nio.file.Path;
import picocli.CommandLine.Option;

/** Engine flags shared by {@code local} and {@code serve}. */
final class EngineOptions {
  @Option(
      names = "--snapshot-cache-mb",
      defaultValue = "0",
      description =
          "Engine snapshot cache: keep hot columns of immutable Lance snapshots in DuckDB (MiB, at"
              + " most half the engine memory limit; 0 = off, the default).")
  long snapshotCacheMb;

  long snapshotCacheBytes() {
    return snapshotCacheMb << 20;
  }

  /** The engine defaults with these flags applied; validated by {@link EngineConfig}. */
  EngineConfig engineConfig(Path spill) {
    return EngineConfig.defaults(spill).withSnapshotCacheBytes(snapshotCacheBytes());
  }
}
