package dev.lake.app;

import dev.lake.engine.EngineConfig;
import dev.lake.engine.EngineConfigBuilder;
import dev.lake.sandbox.SandboxConfig;
import java.nio.file.Path;
import java.time.Duration;
import picocli.CommandLine.Option;

/** Engine settings of every process that executes queries (front door and worker alike). */
public final class EngineOptions {
  @Option(
      names = "--spill-dir",
      description =
          "Engine spill directory (default <java.io.tmpdir>/lake-spill; local mode:"
              + " <data-dir>/spill).")
  Path spillDir;

  @Option(
      names = "--engine-memory-mb",
      description =
          "Engine memory: DuckDB's memory_limit, summed over the memory pools (MiB, 64 .."
              + " 1048576; default a quarter of the machine's or container's memory as the JVM"
              + " reports it, 256 .. 32768). Keep it well below the process's memory: Arrow"
              + " buffers, the JVM heap and the network come on top.")
  Long memoryMb;

  @Option(
      names = "--snapshot-cache-mb",
      description =
          "Engine snapshot cache: keep hot columns of immutable Lance snapshots in DuckDB (MiB, at"
              + " most half the engine memory; 0 = off; default a quarter of it).")
  Long snapshotCacheMb;

  @Option(
      names = "--engine-memory-pools",
      defaultValue = "4",
      description =
          "Engine memory pools: the engine memory (--engine-memory-mb) is split into this many DuckDB databases"
              + " with a memory_limit each, and a pool runs one tenant's statements at a time, so a"
              + " tenant exhausting its pool never fails another tenant's statement (1 .. 64 and"
              + " at least 64 MiB each, default 4; 1 = one pool shared by every tenant).")
  int memoryPools;

  @Option(
      names = "--query-timeout",
      defaultValue = "PT5M",
      description =
          "Interactive deadline of a query, planning and streaming included (ISO-8601, default"
              + " PT5M; at most --max-query-timeout). Past it the query ends with TIMED_OUT.")
  Duration queryTimeout;

  @Option(
      names = "--max-query-timeout",
      defaultValue = "PT1H",
      description =
          "Longest interactive deadline a caller may ask for (default PT1H, at most 24 h).")
  Duration maxQueryTimeout;

  @Option(
      names = "--durable-query-timeout",
      defaultValue = "PT6H",
      description = "Absolute deadline of a durable-tier query (default PT6H, at most 7 days).")
  Duration durableQueryTimeout;

  @Option(
      names = "--engine-isolation",
      defaultValue = "process",
      description =
          "Where tenant SQL runs: process (default: engine child processes, one per memory pool,"
              + " that lake kills at their memory ceiling or when a statement overruns) or"
              + " in-process (this JVM; for embedding and debugging only: a statement can exhaust"
              + " the server's memory).")
  String isolation;

  @Option(
      names = "--engine-process-ceiling-mb",
      defaultValue = "0",
      description =
          "Hard memory ceiling (resident set) of one engine process, MiB; past it the process is"
              + " killed and its statements fail RESOURCE_EXHAUSTED (256 .. 1048576; default 0 ="
              + " twice the pool's memory plus the heap plus 256 MiB).")
  long ceilingMb;

  @Option(
      names = "--engine-process-heap-mb",
      defaultValue = "256",
      description = "JVM heap of one engine process, MiB (64 .. 32768, default 256).")
  long heapMb;

  @Option(
      names = "--engine-grace",
      defaultValue = "PT2S",
      description =
          "How long a statement may take to stop after its deadline, a cancel or its client"
              + " leaving before its engine process is killed (ISO-8601, 0.1 s .. 1 min, default"
              + " PT2S).")
  Duration grace;

  @Option(
      names = "--engine-planning-timeout",
      defaultValue = "PT30S",
      description =
          "Longest planning (describe) of a statement inside the engine process (ISO-8601, 0.1 s"
              + " .. 10 min, default PT30S).")
  Duration planningTimeout;

  @Option(
      names = "--engine-start-timeout",
      defaultValue = "PT60S",
      description =
          "Longest a statement waits for its engine process to start (load the engine's native"
              + " libraries and listen) before it fails UNAVAILABLE; the start goes on for the"
              + " next statement and is given up after five times this (ISO-8601, 1 s .. 10 min,"
              + " default PT60S).")
  Duration startTimeout;

  @Option(
      names = "--engine-spare",
      defaultValue = "true",
      arity = "1",
      description = "Keep one started engine process ready to replace a killed one (default true).")
  boolean spare;

  /** The sandbox settings of these flags, validated by {@link SandboxConfig}. */
  public SandboxConfig sandboxConfig() {
    SandboxConfig.Isolation mode =
        switch (isolation.toLowerCase(java.util.Locale.ROOT)) {
          case "process" -> SandboxConfig.Isolation.PROCESS;
          case "in-process" -> SandboxConfig.Isolation.IN_PROCESS;
          default ->
              throw new IllegalArgumentException(
                  "--engine-isolation must be process or in-process: " + isolation);
        };
    SandboxConfig d = SandboxConfig.defaults();
    return new SandboxConfig(
        mode,
        Math.multiplyExact(ceilingMb, 1L << 20),
        Math.multiplyExact(heapMb, 1L << 20),
        grace,
        planningTimeout,
        d.watchdogInterval(),
        startTimeout,
        spare);
  }

  /** {@code --snapshot-cache-mb} in bytes, or the engine's default share of its memory. */
  public long snapshotCacheBytes() {
    return snapshotCacheMb == null
        ? EngineConfig.defaultSnapshotCacheBytes(memoryBytes())
        : snapshotCacheMb << 20;
  }

  /**
   * {@code --engine-memory-mb} in bytes (validated by {@link EngineConfig}), or the engine's
   * default for this machine or container.
   */
  private long memoryBytes() {
    return memoryMb == null
        ? EngineConfig.defaultMemoryBytes(EngineConfig.totalMemoryBytes())
        : Math.multiplyExact(memoryMb, 1L << 20);
  }

  /** The engine defaults with these settings, spilling to {@code --spill-dir}. */
  public EngineConfig engineConfig() {
    return engineConfig(Path.of(System.getProperty("java.io.tmpdir"), "lake-spill"));
  }

  /**
   * The engine defaults with these settings, spilling to {@code --spill-dir}, or to {@code
   * defaultSpill} when the flag (or {@code LAKE_SPILL_DIR}) is not given. Validated: a value
   * outside its bounds throws, naming the setting.
   */
  public EngineConfig engineConfig(Path defaultSpill) {
    Path spill = spillDir != null ? spillDir : defaultSpill;
    // memory, cache and pools are validated together: the default cache share of a bigger
    // machine's default memory may exceed what a smaller --engine-memory-mb allows
    return EngineConfigBuilder.builder(EngineConfig.defaults(spill))
        .memoryLimitBytes(memoryBytes())
        .snapshotCacheBytes(snapshotCacheBytes())
        .memoryPools(memoryPools)
        .queryTimeout(queryTimeout)
        .maxQueryTimeout(maxQueryTimeout)
        .durableQueryTimeout(durableQueryTimeout)
        .build();
  }
}
