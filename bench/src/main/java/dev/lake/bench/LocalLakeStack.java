package dev.lake.bench;

import dev.lake.app.LocalDurableServer;
import dev.lake.app.Wiring;
import dev.lake.core.CacheStats;
import dev.lake.core.CatalogPlugin;
import dev.lake.core.job.Job;
import dev.lake.core.job.JobState;
import dev.lake.core.local.FileJobStore;
import dev.lake.core.local.FileRegistry;
import dev.lake.core.local.LocalKeyRing;
import dev.lake.durable.DurableTierConfig;
import dev.lake.engine.EngineConfig;
import dev.lake.engine.ResultReuseConfig;
import dev.lake.frontdoor.Components;
import dev.lake.frontdoor.FrontDoorConfig;
import dev.lake.frontdoor.PrincipalEntry;
import dev.lake.frontdoor.Principals;
import dev.lake.lance.LanceFormat;
import dev.lake.lance.demo.TpchDemo;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.stream.Stream;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;

/**
 * lake as {@code bin/lake local} runs it — the real front door ({@link
 * dev.lake.frontdoor.LakeServer} with bearer auth, admission gates and sealed tickets), DuckDB
 * engine with default {@link EngineConfig}, Lance catalog from a file registry, and the local
 * durable tier ({@link LocalDurableServer}: file job store, in-process queue, two in-process
 * workers, results on local disk) — in this JVM on a free loopback port, over the bench's cached
 * TPC-H data; plus the {@code iceberg} catalog when its part starts.
 *
 * <p>The durable tier lives in {@code <data>/durable/}, emptied at start and on close (results of a
 * run are not reused by the next). Its one deviation from {@code bin/lake local}: parts close at
 * about an eighth of lineitem's rows ({@link #benchPartRows}), so P4 downloads at least 4 parts at
 * any scale factor (the default 4 M rows would give one part below SF 0.7).
 */
final class LocalLakeStack implements LakeStack {
  private final BufferAllocator allocator;
  private final Components components;
  private final LocalDurableServer server;
  private final Path durableDir;
  private final String token;
  private final long memoryLimit;
  private final Optional<IcebergPart> iceberg;
  private final String icebergReason;

  private LocalLakeStack(
      BufferAllocator allocator,
      Components components,
      LocalDurableServer server,
      Path durableDir,
      String token,
      long memoryLimit,
      Optional<IcebergPart> iceberg,
      String icebergReason) {
    this.allocator = allocator;
    this.components = components;
    this.server = server;
    this.durableDir = durableDir;
    this.token = token;
    this.memoryLimit = memoryLimit;
    this.iceberg = iceberg;
    this.icebergReason = icebergReason;
  }

  static LakeStack start(BenchContext context) throws Exception {
    BenchConfig config = context.config();
    Path dataDir = config.dataDir();
    Path lance = dataDir.resolve("lance");
    Files.createDirectories(lance);
    BufferAllocator allocator = new RootAllocator();
    Optional<IcebergPart> iceberg = Optional.empty();
    Components components = null;
    try {
      long start = System.nanoTime();
      FileRegistry registry = new FileRegistry(lance.resolve("registry.json"));
      TpchDemo.generate(lance, config.scaleFactor(), registry, allocator);
      context.note("lance data ready in %.1f s", (System.nanoTime() - start) / 1e9);
      List<CatalogPlugin> catalogs = new ArrayList<>();
      catalogs.add(LanceFormat.catalog(registry, allocator, Wiring.DEFAULT_FRESHNESS));
      String icebergReason = "";
      if (LakeStacks.present("dev.lake.iceberg.IcebergFederation")
          && LakeStacks.present("dev.lake.iceberg.demo.RestCatalogFixture")) {
        start = System.nanoTime();
        iceberg =
            Optional.of(
                IcebergPart.start(
                    dataDir,
                    context.parquet(),
                    config.out().resolve("work"),
                    CatalogWarmup.budget(System.getenv(), config.warmups()),
                    allocator));
        context.note(
            "iceberg data and REST catalog ready in %.1f s", (System.nanoTime() - start) / 1e9);
        catalogs.add(
            new CatalogPlugin(
                iceberg.get().federation().resolver(), iceberg.get().federation().reader()));
      } else {
        icebergReason = "not built yet: Iceberg federation (shared/iceberg, shared/iceberg-demo)";
      }
      // The engine's snapshot cache as shipped (a quarter of the engine memory, copies made in the
      // background on a snapshot's second read); LAKE_BENCH_SNAPSHOT_CACHE_MB=N sets it (0 = off),
      // like --snapshot-cache-mb of the CLI.
      String cacheMb = System.getenv().getOrDefault("LAKE_BENCH_SNAPSHOT_CACHE_MB", "").trim();
      EngineConfig shipped = EngineConfig.defaults(dataDir.resolve("spill"));
      EngineConfig engine =
          cacheMb.isEmpty()
              ? shipped
              : shipped.withSnapshotCacheBytes(Long.parseLong(cacheMb) << 20);
      context.note(
          "engine snapshot cache: %s",
          cacheMb.isEmpty()
              ? (engine.snapshotCacheBytes() >> 20) + " MiB (default)"
              : cacheMb + " MiB (LAKE_BENCH_SNAPSHOT_CACHE_MB)");
      // Result reuse (on by default in bin/lake local) would answer every repeated bench query
      // from a stored result while the DuckDB baselines execute each time, so the bench runs lake
      // with it off; LAKE_BENCH_RESULT_REUSE_MB=N measures it on.
      long reuseMb =
          Long.parseLong(System.getenv().getOrDefault("LAKE_BENCH_RESULT_REUSE_MB", "0").trim());
      ResultReuseConfig reuse =
          reuseMb == 0
              ? ResultReuseConfig.off()
              : new ResultReuseConfig(
                  reuseMb << 20,
                  Math.min(ResultReuseConfig.DEFAULT_MAX_ENTRY_BYTES, reuseMb << 20));
      context.note(
          "result reuse: %s",
          reuseMb == 0 ? "off (bench default)" : reuseMb + " MiB (LAKE_BENCH_RESULT_REUSE_MB)");
      components = Wiring.components(allocator, engine, reuse, LocalKeyRing.ephemeral(), catalogs);
      String token = newToken();
      Principals principals =
          new Principals(
              List.of(
                  new PrincipalEntry(
                      Principals.sha256Hex(token),
                      "bench",
                      "bench",
                      List.of(
                          "lake.tpch",
                          "iceberg." + TpchIceberg.NAMESPACE,
                          "iceberg." + IcebergPart.COLD_NAMESPACE))));
      Path durableDir = dataDir.resolve("durable");
      deleteTree(durableDir);
      Files.createDirectories(durableDir);
      LocalDurableServer server =
          LocalDurableServer.start(
              FrontDoorConfig.defaults().withListener("127.0.0.1", 0),
              components,
              principals,
              Clock.systemUTC(),
              durableDir,
              benchDurable(config.scaleFactor()));
      return new LocalLakeStack(
          allocator,
          components,
          server,
          durableDir,
          token,
          engine.memoryLimitBytes(),
          iceberg,
          icebergReason);
    } catch (Exception | Error e) {
      if (components != null) {
        components.close();
      }
      if (iceberg.isPresent()) {
        iceberg.get().close();
      }
      allocator.close();
      throw e;
    }
  }

  /** Lineitem has about 6 M rows per scale factor; P4 wants it in about 8 parts. */
  static long benchPartRows(double scaleFactor) {
    return Math.max(1_000, (long) Math.ceil(6_000_000 * scaleFactor / 8));
  }

  /**
   * {@code bin/lake local}'s durable settings (result prefix {@code ""}, two in-process workers,
   * default waits, leases and TTLs) with {@link #benchPartRows} rows per part on both sides.
   */
  static DurableTierConfig benchDurable(double scaleFactor) {
    DurableTierConfig local = DurableTierConfig.defaults().withResultPrefix("");
    return local.withResults(local.layout().bounds().withMaxPartRows(benchPartRows(scaleFactor)));
  }

  private static void deleteTree(Path dir) {
    if (!Files.exists(dir)) {
      return;
    }
    try (Stream<Path> paths = Files.walk(dir)) {
      for (Path p : paths.sorted(Comparator.reverseOrder()).toList()) {
        Files.deleteIfExists(p);
      }
    } catch (IOException e) {
      throw new UncheckedIOException("cannot empty " + dir, e);
    }
  }

  /** A random bearer token for a bench principal. */
  static String newToken() {
    byte[] bytes = new byte[24];
    new SecureRandom().nextBytes(bytes);
    return "bench_" + Base64.getUrlEncoder().withoutPadding().encodeToString(bytes);
  }

  @Override
  public String uri() {
    return "grpc://127.0.0.1:" + server.server().port();
  }

  @Override
  public String token() {
    return token;
  }

  @Override
  public long engineMemoryLimitBytes() {
    return memoryLimit;
  }

  @Override
  public Optional<String> icebergMissing() {
    return iceberg.isPresent() ? Optional.empty() : Optional.of(icebergReason);
  }

  @Override
  public Optional<String> durableMissing() {
    return Optional.empty();
  }

  @Override
  public List<Double> succeededJobMillis() {
    FileJobStore jobs = new FileJobStore(durableDir.resolve("jobs"));
    List<Double> millis = new ArrayList<>();
    for (String id : jobs.ids()) {
      jobs.find(id)
          .filter(j -> j.state() == JobState.SUCCEEDED)
          .map(LocalLakeStack::jobMillis)
          .ifPresent(millis::add);
    }
    return millis;
  }

  private static double jobMillis(Job job) {
    return Duration.between(job.createdAt(), job.updatedAt()).toNanos() / 1e6;
  }

  @Override
  public OptionalInt largestDurableResultParts() {
    Path results = durableDir.resolve("results");
    if (!Files.isDirectory(results)) {
      return OptionalInt.empty();
    }
    try (Stream<Path> files = Files.walk(results)) {
      return files
          .filter(f -> f.getFileName().toString().matches("part-\\d+\\.arrow"))
          .collect(java.util.stream.Collectors.groupingBy(Path::getParent))
          .values()
          .stream()
          .mapToInt(List::size)
          .max();
    } catch (IOException e) {
      return OptionalInt.empty();
    }
  }

  @Override
  public Optional<String> loadTableCountMissing() {
    return icebergMissing();
  }

  @Override
  public String coldIcebergTable() {
    return iceberg.orElseThrow().coldTable();
  }

  @Override
  public long loadTableCalls(String table) {
    return iceberg.orElseThrow().loadTableCalls(table);
  }

  @Override
  public Optional<CatalogUsage> icebergCatalogUsage() {
    return iceberg.flatMap(IcebergPart::usage);
  }

  @Override
  public Optional<CacheStats> cacheStats() {
    return Optional.of(components.engine().cacheStats());
  }

  @Override
  public void close() throws Exception {
    try {
      server.close();
      deleteTree(durableDir);
    } finally {
      try {
        components.close();
      } finally {
        try {
          if (iceberg.isPresent()) {
            iceberg.get().close();
          }
        } finally {
          allocator.close();
        }
      }
    }
  }
}
