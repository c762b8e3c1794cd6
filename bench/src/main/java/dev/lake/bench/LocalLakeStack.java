package dev.lake.bench;

import dev.lake.core.local.FileRegistry;
import dev.lake.core.local.LocalKeyRing;
import dev.lake.engine.EngineConfig;
import dev.lake.engine.demo.TpchDemo;
import dev.lake.frontdoor.CatalogPlugin;
import dev.lake.frontdoor.Components;
import dev.lake.frontdoor.FrontDoorConfig;
import dev.lake.frontdoor.LakeServer;
import dev.lake.frontdoor.PrincipalEntry;
import dev.lake.frontdoor.Principals;
import dev.lake.frontdoor.Wiring;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.time.Clock;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Optional;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;

/**
 * lake as {@code bin/lake local} runs it — the real front door ({@link LakeServer} with bearer
 * auth, admission gates and sealed tickets), DuckDB engine with default {@link EngineConfig}, Lance
 * catalog from a file registry — in this JVM on a free loopback port, over the bench's cached TPC-H
 * data; plus the {@code iceberg} catalog when its part starts.
 */
final class LocalLakeStack implements LakeStack {
  private final BufferAllocator allocator;
  private final Components components;
  private final LakeServer server;
  private final String token;
  private final long memoryLimit;
  private final Optional<IcebergPart> iceberg;
  private final String icebergReason;

  private LocalLakeStack(
      BufferAllocator allocator,
      Components components,
      LakeServer server,
      String token,
      long memoryLimit,
      Optional<IcebergPart> iceberg,
      String icebergReason) {
    this.allocator = allocator;
    this.components = components;
    this.server = server;
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
      catalogs.add(Wiring.lanceCatalog(registry, allocator, Wiring.DEFAULT_FRESHNESS));
      String icebergReason = "";
      if (LakeStacks.present("dev.lake.iceberg.IcebergFederation")
          && LakeStacks.present("dev.lake.iceberg.demo.RestCatalogFixture")) {
        start = System.nanoTime();
        iceberg = Optional.of(IcebergPart.start(dataDir, config.scaleFactor(), allocator));
        context.note(
            "iceberg data and REST catalog ready in %.1f s", (System.nanoTime() - start) / 1e9);
        catalogs.add(
            new CatalogPlugin(
                iceberg.get().federation().resolver(), iceberg.get().federation().reader()));
      } else {
        icebergReason = "not built yet: Iceberg federation (shared/iceberg, shared/iceberg-demo)";
      }
      EngineConfig engine = EngineConfig.defaults(dataDir.resolve("spill"));
      components = Wiring.components(allocator, engine, LocalKeyRing.ephemeral(), catalogs);
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
      LakeServer server =
          LakeServer.start(
              FrontDoorConfig.defaults().withListener("127.0.0.1", 0),
              components,
              principals,
              Clock.systemUTC());
      return new LocalLakeStack(
          allocator, components, server, token, engine.memoryLimitBytes(), iceberg, icebergReason);
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

  private static String newToken() {
    byte[] bytes = new byte[24];
    new SecureRandom().nextBytes(bytes);
    return "bench_" + Base64.getUrlEncoder().withoutPadding().encodeToString(bytes);
  }

  @Override
  public String uri() {
    return "grpc://127.0.0.1:" + server.port();
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
    return Optional.of(
        "not built yet: the front door does not route PollFlightInfo to DurableQueries");
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
  public void close() throws Exception {
    try {
      server.close();
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
