package dev.lake.app;

import static java.util.Objects.requireNonNull;

import dev.lake.core.CacheStats;
import dev.lake.core.DataLocations;
import dev.lake.core.Grant;
import dev.lake.core.QueryEngine;
import dev.lake.core.Registry;
import dev.lake.core.TableRef;
import dev.lake.core.local.LocalFiles;
import dev.lake.durable.DurableTier;
import dev.lake.durable.DurableTierConfig;
import dev.lake.engine.EngineConfig;
import dev.lake.engine.ResultReuseConfig;
import dev.lake.frontdoor.CallObserver;
import dev.lake.frontdoor.Components;
import dev.lake.frontdoor.FrontDoorConfig;
import dev.lake.frontdoor.IdentityConfig;
import dev.lake.frontdoor.LakeServer;
import dev.lake.frontdoor.PrincipalEntry;
import dev.lake.frontdoor.Principals;
import dev.lake.lance.demo.TpchDemo;
import dev.lake.sandbox.SandboxConfig;
import io.soabase.recordbuilder.core.RecordBuilder;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.apache.arrow.memory.BufferAllocator;

/**
 * The embedded deployment behind {@code bin/lake local}: one data directory holds the registry, key
 * ring, principals file, demo token, Lance datasets, the spill directory and the durable tier's
 * {@code jobs/} and {@code results/} (on unless disabled). On first start it generates TPC-H demo
 * data and registers {@code lake.tpch.*}.
 */
final class LocalLake implements AutoCloseable {
  static final String DEMO_TENANT = "demo";
  static final String DEMO_PRINCIPAL = "demo";
  static final String DEMO_GRANT = "lake.tpch";

  /** Where local mode keeps each of its files under the data directory. */
  record Layout(Path dataDir) {
    Layout {
      dataDir = requireNonNull(dataDir, "dataDir is null").toAbsolutePath().normalize();
    }

    Path registry() {
      return dataDir.resolve("registry.json");
    }

    Path keyRing() {
      return dataDir.resolve("keyring.json");
    }

    Path principals() {
      return dataDir.resolve("principals.json");
    }

    Path demoToken() {
      return dataDir.resolve("demo-token");
    }

    Path tables() {
      return dataDir.resolve("tables");
    }

    Path spill() {
      return dataDir.resolve("spill");
    }

    /**
     * The address of the running server, for {@code bin/lake sql} (one line, {@code
     * grpc+tcp://host:port}); removed when the server stops. The client reads it as {@code
     * ConnectionOptions.URL_FILE}.
     */
    Path url() {
      return dataDir.resolve("url");
    }
  }

  /**
   * Options of local mode; see {@code lake local}. Built with {@link #options(Path)}: everything
   * but the data directory has a default (loopback port 31337, the demo token, TPC-H SF 0.01, the
   * durable tier on, no format settings (no Iceberg), the engine's defaults spilling under the data
   * directory with the snapshot cache off). {@code engine} is the whole engine configuration as
   * {@code bin/lake local}'s flags give it.
   */
  @RecordBuilder
  @RecordBuilder.Options(emptyDefaultForOptional = true)
  record Options(
      Path dataDir,
      @RecordBuilder.Initializer("DEFAULT_HOST") String host,
      @RecordBuilder.Initializer("DEFAULT_PORT") int port,
      Optional<String> token,
      @RecordBuilder.Initializer("DEFAULT_SCALE") double scale,
      @RecordBuilder.Initializer("systemClock") Clock clock,
      @RecordBuilder.Initializer("noFormatSettings") List<Object> formatSettings,
      @RecordBuilder.Initializer("localDurable") Optional<DurableTierConfig> durable,
      Optional<EngineConfig> engine,
      @RecordBuilder.Initializer("staticTokens") IdentityConfig identity,
      @RecordBuilder.Initializer("noGrants") List<String> grants,
      @RecordBuilder.Initializer("inProcess") SandboxConfig sandbox) {
    public static final String DEFAULT_HOST = FrontDoorConfig.DEFAULT_HOST;
    public static final int DEFAULT_PORT = FrontDoorConfig.DEFAULT_PORT;
    public static final double DEFAULT_SCALE = 0.01;

    Options {
      formatSettings = List.copyOf(requireNonNull(formatSettings, "formatSettings is null"));
      grants = List.copyOf(requireNonNull(grants, "grants is null"));
      grants.forEach(Grant::parse); // a bad grant fails before any data exists
      requireNonNull(durable, "durable is null");
      requireNonNull(dataDir, "dataDir is null");
      requireNonNull(host, "host is null");
      requireNonNull(token, "token is null");
      requireNonNull(clock, "clock is null");
      requireNonNull(identity, "identity is null");
      requireNonNull(engine, "engine is null");
      if (!(scale > 0 && scale <= 10)) {
        throw new IllegalArgumentException("scale must be in (0, 10]: " + scale);
      }
      if (port < 0 || port > 65_535) {
        throw new IllegalArgumentException("--port must be in [0, 65535]: " + port);
      }
    }

    public static IdentityConfig staticTokens() {
      return IdentityConfig.defaults();
    }

    public static Clock systemClock() {
      return Clock.systemUTC();
    }

    public static Optional<DurableTierConfig> localDurable() {
      return LocalLake.localDurable();
    }

    /** Embedded (tests): this JVM; {@code lake local} passes its flags' engine processes. */
    public static SandboxConfig inProcess() {
      return SandboxConfig.inProcess();
    }

    public static List<Object> noFormatSettings() {
      return List.of();
    }

    public static List<String> noGrants() {
      return List.of();
    }

    /** The engine settings of local mode: {@code engine}, else defaults without the cache. */
    EngineConfig engineConfig(Path spill) {
      return engine.orElseGet(() -> EngineConfig.defaults(spill).withSnapshotCacheBytes(0));
    }
  }

  /** A builder of local mode's options under {@code dataDir}, every other option at its default. */
  static LocalLakeOptionsBuilder options(Path dataDir) {
    return LocalLakeOptionsBuilder.builder().dataDir(dataDir);
  }

  /** Local mode's durable tier: results directly under {@code <data>/results/<tenant>/…}. */
  static Optional<DurableTierConfig> localDurable() {
    return Optional.of(DurableTierConfig.defaults().withResultPrefix(""));
  }

  private final BufferAllocator allocator;
  private final Components components;
  private final LakeServer server;
  private final String token;
  private final Layout layout;
  private final Registry registry;
  private final Optional<DurableTier> durable;
  private final QueryEngine engine;

  private LocalLake(
      BufferAllocator allocator,
      Components components,
      LakeServer server,
      String token,
      Layout layout,
      Registry registry,
      Optional<DurableTier> durable,
      QueryEngine engine) {
    this.durable = durable;
    this.engine = engine;
    this.allocator = allocator;
    this.components = components;
    this.server = server;
    this.token = token;
    this.layout = layout;
    this.registry = registry;
  }

  static LocalLake start(Options options, PrintWriter out) {
    return start(options, LimitOptions.defaults(), out);
  }

  /**
   * {@code settings} whose {@link DataLocations} (those given, or none) also allow local mode's
   * data directory, where its demo tables live.
   */
  static List<Object> withDataDirectory(List<Object> settings, Path dataDir) {
    List<Object> out = new ArrayList<>();
    DataLocations locations = null;
    for (Object s : settings) {
      if (s instanceof DataLocations l) {
        locations = l;
      } else {
        out.add(s);
      }
    }
    out.add(locations == null ? DataLocations.of(dataDir) : locations.plus(dataDir));
    return List.copyOf(out);
  }

  /** As above, with the load bounds of {@code limits} (flags of {@code bin/lake local}). */
  static LocalLake start(Options options, LimitOptions limits, PrintWriter out) {
    requireNonNull(limits, "limits is null");
    Layout layout = new Layout(options.dataDir());
    try {
      Files.createDirectories(layout.tables());
      Files.createDirectories(layout.spill());
    } catch (IOException e) {
      throw new UncheckedIOException("cannot create data directory " + layout.dataDir(), e);
    }
    String token = options.token().orElseGet(() -> loadOrCreateToken(layout.demoToken()));
    // the composition root every lake process uses; local mode's registry and keys are files
    LakeRuntime runtime =
        LakeRuntime.start(
            RuntimeConfig.builder(
                    RegistrySource.file(layout.registry()),
                    new KeySource.CreatedFile(layout.keyRing()),
                    options.engineConfig(layout.spill()))
                .formatSettings(withDataDirectory(options.formatSettings(), layout.dataDir()))
                .sandbox(options.sandbox())
                .build());
    Components components = null;
    Optional<DurableTier> durable = Optional.empty();
    try {
      Registry registry = runtime.registry();
      // the demo depends only on its own tables: any missing one is generated (existing kept)
      boolean hasDemo = TpchDemo.tables().stream().allMatch(t -> registry.find(t).isPresent());
      if (!hasDemo) {
        out.println("Generating TPC-H demo data (scale " + options.scale() + ") ...");
        out.flush();
        List<TableRef> tables =
            TpchDemo.generate(
                layout.tables().toAbsolutePath().toString(),
                options.scale(),
                registry,
                runtime.allocator(),
                Map.of(),
                line -> {
                  out.println(line);
                  out.flush();
                });
        out.println("Registered " + tables.size() + " tables: " + tables);
      }
      // every registered lake namespace, the formats' exposed tables and --grant
      List<String> grants =
          DemoPrincipal.grants(registry, options.formatSettings(), options.grants());
      boolean written =
          DemoPrincipal.writeUnlessEdited(
              layout.principals(),
              List.of(
                  new PrincipalEntry(
                      Principals.sha256Hex(token), DEMO_TENANT, DEMO_PRINCIPAL, grants)));
      if (!written) {
        out.println(
            "principals: "
                + layout.principals()
                + " was edited by hand; lake serves it as it is (the demo grants, --grant and"
                + " --token are not added to it)");
      }
      components = Wiring.components(runtime, ResultReuseConfig.defaults(), limits.admission());
      FrontDoorConfig config =
          limits.applyTo(FrontDoorConfig.defaults().withListener(options.host(), options.port()));
      Components built = components;
      durable =
          options
              .durable()
              .map(
                  d ->
                      DurableTier.local(
                          layout.dataDir(), built.durableInputs(), d, options.clock()));
      LakeServer server =
          LakeServer.start(
              config,
              components,
              options.identity().authenticator(Optional.of(layout.principals()), options.clock()),
              options.clock(),
              durable,
              CallObserver.quiet(),
              limits.flightExecutor());
      try {
        writeUrl(layout.url(), grpcUrl(server.host(), server.port()));
      } catch (RuntimeException e) {
        server.close();
        throw e;
      }
      return new LocalLake(
          runtime.allocator(),
          components,
          server,
          token,
          layout,
          registry,
          durable,
          runtime.engine());
    } catch (RuntimeException e) {
      durable.ifPresent(DurableTier::close);
      if (components != null) {
        components.close();
      } else {
        runtime.close();
      }
      throw e;
    }
  }

  int port() {
    return server.port();
  }

  LakeServer server() {
    return server;
  }

  String token() {
    return token;
  }

  Layout layout() {
    return layout;
  }

  Registry registry() {
    return registry;
  }

  /** The engine's cache counters (tests: whether copies were made and served). */
  CacheStats cacheStats() {
    return engine.cacheStats();
  }

  BufferAllocator allocator() {
    return allocator;
  }

  String jdbcUrl() {
    return jdbcUrl(server.host(), server.port(), token);
  }

  /** The JDBC URL of a plaintext loopback front door accepting {@code token}. */
  static String jdbcUrl(String host, int port, String token) {
    return "jdbc:arrow-flight-sql://"
        + host
        + ":"
        + port
        + "/?useEncryption=false&token="
        + java.net.URLEncoder.encode(token, StandardCharsets.UTF_8);
  }

  /** The address {@code bin/lake sql} should use, e.g. {@code grpc+tcp://127.0.0.1:31337}. */
  String url() {
    return grpcUrl(server.host(), server.port());
  }

  private static String grpcUrl(String host, int port) {
    return "grpc+tcp://" + host + ":" + port;
  }

  @Override
  public void close() {
    try {
      server.close();
      durable.ifPresent(DurableTier::close);
    } finally {
      try {
        Files.deleteIfExists(layout.url());
      } catch (IOException e) {
        // a stale address only makes bin/lake sql say it cannot reach it
      }
      components.close(); // and the runtime, whose allocator it is
    }
  }

  /** Writes the server's address where {@code bin/lake sql} looks for it (whole or not at all). */
  private static void writeUrl(Path file, String url) {
    try {
      Path tmp = Files.createTempFile(file.toAbsolutePath().getParent(), ".url", ".tmp");
      Files.writeString(tmp, url + "\n", StandardCharsets.UTF_8);
      Files.move(tmp, file, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot write the server's address to " + file, e);
    }
  }

  /** The demo token, created once with 256 random bits and kept owner-readable only. */
  static String loadOrCreateToken(Path file) {
    try {
      if (Files.exists(file)) {
        String token = Files.readString(file, StandardCharsets.UTF_8).trim();
        if (!token.isEmpty()) {
          return token;
        }
      }
      String token = Principals.newToken();
      LocalFiles.writeSecret(
          file, tmp -> Files.writeString(tmp, token + "\n", StandardCharsets.UTF_8));
      return token;
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read or write the demo token " + file, e);
    }
  }
}
