package dev.lake.bench;

import dev.lake.app.LocalDurableServer;
import dev.lake.app.Wiring;
import dev.lake.core.local.FileRegistry;
import dev.lake.core.local.LocalKeyRing;
import dev.lake.durable.DurableTierConfig;
import dev.lake.engine.EngineConfig;
import dev.lake.engine.EngineConfigBuilder;
import dev.lake.engine.ResultReuseConfig;
import dev.lake.frontdoor.Components;
import dev.lake.frontdoor.FrontDoorConfig;
import dev.lake.frontdoor.PrincipalEntry;
import dev.lake.frontdoor.Principals;
import dev.lake.lance.LanceFormat;
import dev.lake.lance.demo.TpchDemo;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;

/**
 * lake as {@code bin/lake local} wires it, in this JVM on a free loopback port: TPC-H demo data as
 * Lance, the DuckDB engine, the front door with its default admission gates (8 queries, 4 per
 * tenant), the engine's snapshot cache at its default share (a quarter of the memory limit) and the
 * local durable tier (two in-process workers). Deviations, all for the load test: the engine memory
 * limit and the idle-stream timeout come from {@link LoadConfig}, and exact result reuse is off so
 * that every polite query executes. Tenants {@code polite-1 … polite-N} and {@code greedy} each get
 * a token granting {@code lake.tpch}.
 */
final class LoadServer implements AutoCloseable {
  static final String GREEDY = "greedy";

  private final BufferAllocator allocator;
  private final Components components;
  private final LocalDurableServer server;
  private final List<String> politeTokens;
  private final String greedyToken;
  private final FrontDoorConfig frontDoor;

  private LoadServer(
      BufferAllocator allocator,
      Components components,
      LocalDurableServer server,
      List<String> politeTokens,
      String greedyToken,
      FrontDoorConfig frontDoor) {
    this.allocator = allocator;
    this.components = components;
    this.server = server;
    this.politeTokens = politeTokens;
    this.greedyToken = greedyToken;
    this.frontDoor = frontDoor;
  }

  /** Generates the data under {@code dir} (reused when present) and starts listening. */
  static LoadServer start(LoadConfig config, Path dir) throws Exception {
    Files.createDirectories(dir);
    BufferAllocator allocator = new RootAllocator();
    Components components = null;
    try {
      FileRegistry registry = new FileRegistry(dir.resolve("registry.json"));
      if (registry.list().isEmpty()) {
        TpchDemo.generate(dir.resolve("lance"), config.scale(), registry, allocator);
      }
      // as shipped, with the configured memory limit: the snapshot cache keeps its default share
      // (a quarter of the memory limit)
      EngineConfig engine =
          EngineConfigBuilder.builder(EngineConfig.defaults(dir.resolve("spill")))
              .memoryLimitBytes(config.engineMemoryBytes())
              .snapshotCacheBytes(config.engineMemoryBytes() / 4)
              .build();
      components =
          Wiring.components(
              allocator,
              engine,
              ResultReuseConfig.off(),
              LocalKeyRing.ephemeral(),
              List.of(LanceFormat.catalog(registry, allocator, Wiring.DEFAULT_FRESHNESS)));
      List<String> polite = new ArrayList<>();
      List<PrincipalEntry> entries = new ArrayList<>();
      for (int t = 1; t <= config.politeTenants(); t++) {
        String token = LocalLakeStack.newToken();
        polite.add(token);
        entries.add(entry(token, "polite-" + t));
      }
      String greedy = LocalLakeStack.newToken();
      entries.add(entry(greedy, GREEDY));
      Path durable = dir.resolve("durable-" + System.nanoTime());
      FrontDoorConfig frontDoor =
          FrontDoorConfig.defaults()
              .withListener("127.0.0.1", 0)
              .withIdleStreamTimeout(config.idleStreamTimeout());
      LocalDurableServer server =
          LocalDurableServer.start(
              frontDoor,
              components,
              new Principals(entries),
              Clock.systemUTC(),
              durable,
              DurableTierConfig.defaults().withResultPrefix(""));
      return new LoadServer(allocator, components, server, polite, greedy, frontDoor);
    } catch (Exception | Error e) {
      if (components != null) {
        components.close();
      }
      allocator.close();
      throw e;
    }
  }

  private static PrincipalEntry entry(String token, String tenant) {
    return new PrincipalEntry(Principals.sha256Hex(token), tenant, tenant, List.of("lake.tpch"));
  }

  int port() {
    return server.server().port();
  }

  List<String> politeTokens() {
    return politeTokens;
  }

  String greedyToken() {
    return greedyToken;
  }

  FrontDoorConfig frontDoor() {
    return frontDoor;
  }

  @Override
  public void close() {
    try {
      server.close();
    } finally {
      try {
        components.close();
      } finally {
        allocator.close();
      }
    }
  }
}
