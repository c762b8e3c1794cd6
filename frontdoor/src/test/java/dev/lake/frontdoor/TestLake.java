package dev.lake.frontdoor;

import dev.lake.core.AdmittedQuery;
import dev.lake.core.CatalogPlugin;
import dev.lake.core.Catalogs;
import dev.lake.core.ForwardingQueryEngine;
import dev.lake.core.QueryEngine;
import dev.lake.core.QueryExecution;
import dev.lake.core.ScanRequest;
import dev.lake.core.SnapshotSet;
import dev.lake.core.TableRef;
import dev.lake.core.local.FileRegistry;
import dev.lake.core.local.LocalKeyRing;
import dev.lake.core.testing.MutableClock;
import dev.lake.durable.DurableTier;
import dev.lake.durable.DurableTierConfig;
import dev.lake.engine.EngineConfig;
import dev.lake.lance.LanceDatasets;
import dev.lake.lance.LanceFormat;
import dev.lake.lance.LanceSnapshot;
import dev.lake.lance.LanceTableReader;
import dev.lake.lance.LanceTableResolver;
import dev.lake.lance.demo.TpchDemo;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.Statement;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.UnaryOperator;
import org.apache.arrow.c.ArrowArrayStream;
import org.apache.arrow.c.Data;
import org.apache.arrow.flight.CallOption;
import org.apache.arrow.flight.FlightClient;
import org.apache.arrow.flight.HeaderCallOption;
import org.apache.arrow.flight.Location;
import org.apache.arrow.flight.grpc.CredentialCallOption;
import org.apache.arrow.flight.sql.FlightSqlClient;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.ipc.ArrowReader;
import org.duckdb.DuckDBConnection;

/**
 * A real lake for end-to-end tests: TPC-H SF 0.01 as Lance datasets, the real DuckDB engine and
 * admission, a loopback Flight SQL server on port 0, a clock the test controls, and principals:
 * alice and bob (tenant acme, lake.tpch + lake.pin), carol (tenant globex, same grants) and dave
 * (tenant acme, lake.tpch.nation only); {@link #ALICE_REVOKED} is alice with her lake.tpch grant
 * revoked.
 */
public final class TestLake implements AutoCloseable {
  static final String ALICE = "alice-token";
  static final String BOB = "bob-token";
  static final String CAROL = "carol-token";
  static final String DAVE = "dave-token";

  /** alice (acme) after her grant on lake.tpch was revoked: only lake.pin is left. */
  static final String ALICE_REVOKED = "alice-revoked-token";

  static final List<String> TPCH =
      List.of("customer", "lineitem", "nation", "orders", "part", "partsupp", "region", "supplier");

  final MutableClock clock = MutableClock.ticking();
  final BufferAllocator allocator = new RootAllocator();
  final Path dir;
  final FileRegistry registry;
  final CountingEngine engine;
  final Components components;
  final Principals principals;
  // what the front door authenticates with: the principals above unless a test wraps them
  final Authenticator authenticator;
  final Optional<DurableTierConfig> durableConfig;
  private final UnaryOperator<FrontDoorConfig> frontDoor;

  /** The audit lines of this lake's front door (the latest 10,000 at most) and its meters. */
  final java.util.concurrent.BlockingQueue<String> auditLines =
      new java.util.concurrent.LinkedBlockingQueue<>(10_000);

  final io.micrometer.core.instrument.simple.SimpleMeterRegistry meters =
      new io.micrometer.core.instrument.simple.SimpleMeterRegistry();
  private final CallObserver observer = new CallObserver(new AuditLog(auditLines::offer), meters);
  volatile LakeServer server;
  volatile Optional<DurableTier> durable;
  private final AtomicInteger copies = new AtomicInteger();

  private TestLake(
      Path dir,
      Optional<DurableTierConfig> durableConfig,
      UnaryOperator<FrontDoorConfig> frontDoor,
      UnaryOperator<EngineConfig> engineConfig) {
    this(dir, durableConfig, frontDoor, engineConfig, c -> c);
  }

  private TestLake(
      Path dir,
      Optional<DurableTierConfig> durableConfig,
      UnaryOperator<FrontDoorConfig> frontDoor,
      UnaryOperator<EngineConfig> engineConfig,
      UnaryOperator<CatalogPlugin> lakeCatalog) {
    this(dir, durableConfig, frontDoor, engineConfig, lakeCatalog, p -> p);
  }

  private TestLake(
      Path dir,
      Optional<DurableTierConfig> durableConfig,
      UnaryOperator<FrontDoorConfig> frontDoor,
      UnaryOperator<EngineConfig> engineConfig,
      UnaryOperator<CatalogPlugin> lakeCatalog,
      java.util.function.Function<Principals, Authenticator> authenticator) {
    this.durableConfig = durableConfig;
    this.frontDoor = frontDoor;
    this.dir = dir;
    this.registry = new FileRegistry(dir.resolve("registry.json"));
    TpchDemo.generate(dir.resolve("data"), 0.01, registry, allocator);
    Components real =
        EngineComponents.over(
            allocator,
            engineConfig.apply(EngineConfig.defaults(dir.resolve("spill"))),
            LocalKeyRing.loadOrCreate(dir.resolve("keyring.json")),
            List.of(lakeCatalog.apply(LanceFormat.catalog(registry, allocator, Duration.ZERO))));
    this.engine = new CountingEngine(real.engine());
    this.components =
        new Components(
            allocator,
            real.admission(),
            real.catalogs(),
            real.readers(),
            engine,
            real.keys(),
            real.owned());
    this.principals =
        new Principals(
            List.of(
                entry(ALICE, "acme", "alice", List.of("lake.tpch", "lake.pin")),
                entry(BOB, "acme", "bob", List.of("lake.tpch", "lake.pin")),
                entry(CAROL, "globex", "alice", List.of("lake.tpch", "lake.pin")),
                entry(DAVE, "acme", "dave", List.of("lake.tpch.nation")),
                entry(ALICE_REVOKED, "acme", "alice", List.of("lake.pin"))));
    this.authenticator = authenticator.apply(principals);
    this.durable =
        durableConfig.map(c -> DurableTier.local(dir, components.durableInputs(), c, clock));
    this.server =
        LakeServer.start(
            frontDoor.apply(FrontDoorConfig.defaults().withListener("127.0.0.1", 0)),
            components,
            this.authenticator,
            clock,
            durable,
            observer);
  }

  static TestLake start(Path dir) {
    return new TestLake(dir, Optional.empty(), c -> c, c -> c);
  }

  /** With front-door and engine settings changed from the defaults (e.g. short timeouts). */
  static TestLake start(
      Path dir, UnaryOperator<FrontDoorConfig> frontDoor, UnaryOperator<EngineConfig> engine) {
    return new TestLake(dir, Optional.empty(), frontDoor, engine);
  }

  /** Authenticating with what {@code authenticator} makes of the test principals (e.g. + JWT). */
  static TestLake withAuthenticator(
      Path dir, java.util.function.Function<Principals, Authenticator> authenticator) {
    return new TestLake(dir, Optional.empty(), c -> c, c -> c, c -> c, authenticator);
  }

  /** With the {@code lake} catalog (Lance) as {@code lakeCatalog} makes it (wrapped ports). */
  static TestLake withCatalog(Path dir, UnaryOperator<CatalogPlugin> lakeCatalog) {
    return new TestLake(dir, Optional.empty(), c -> c, c -> c, lakeCatalog);
  }

  /** With the durable tier on: local adapters under {@code dir}, in-process workers. */
  static TestLake startDurable(Path dir, DurableTierConfig config) {
    return startDurable(dir, config, c -> c);
  }

  /** With the durable tier on and front-door settings changed from the defaults. */
  static TestLake startDurable(
      Path dir, DurableTierConfig config, UnaryOperator<FrontDoorConfig> frontDoor) {
    return new TestLake(dir, Optional.of(config), frontDoor, c -> c);
  }

  /**
   * Stops the front door (listener, durable tier and its workers) and starts a new one on the same
   * port over the same data directory, as a process restart would.
   */
  void restart() {
    int port = port();
    server.close();
    durable.ifPresent(DurableTier::close);
    durable = durableConfig.map(c -> DurableTier.local(dir, components.durableInputs(), c, clock));
    server =
        LakeServer.start(
            frontDoor.apply(FrontDoorConfig.defaults().withListener("127.0.0.1", port)),
            components,
            authenticator,
            clock,
            durable,
            observer);
  }

  /**
   * A second front door (another port, no workers) sharing only what replicas share: the key ring
   * file, the job directory and the result store. Closing it leaves this lake running.
   */
  Replica replica() {
    Components shared =
        new Components(
            allocator,
            components.admission(),
            components.catalogs(),
            components.readers(),
            engine,
            LocalKeyRing.load(dir.resolve("keyring.json")),
            List.of());
    DurableTier tier =
        DurableTier.local(
            dir, shared.durableInputs(), durableConfig.orElseThrow().withWorkers(0), clock);
    LakeServer replica =
        LakeServer.start(
            FrontDoorConfig.defaults().withListener("127.0.0.1", 0),
            shared,
            principals,
            clock,
            Optional.of(tier));
    return new Replica(replica, tier);
  }

  /** A second front door; see {@link #replica()}. */
  record Replica(LakeServer server, DurableTier tier) implements AutoCloseable {
    @Override
    public void close() {
      server.close();
      tier.close();
    }
  }

  private static PrincipalEntry entry(String token, String tenant, String id, List<String> grants) {
    return new PrincipalEntry(Principals.sha256Hex(token), tenant, id, grants);
  }

  int port() {
    return server.port();
  }

  String jdbcUrl(String token) {
    return "jdbc:arrow-flight-sql://127.0.0.1:" + port() + "/?useEncryption=false&token=" + token;
  }

  FlightSqlClient client() {
    return new FlightSqlClient(
        FlightClient.builder(allocator, Location.forGrpcInsecure("127.0.0.1", port())).build());
  }

  public static CallOption bearer(String token) {
    return new CredentialCallOption(
        new org.apache.arrow.flight.auth2.BearerCredentialWriter(token));
  }

  static HeaderCallOption noAuth() {
    return new HeaderCallOption(new org.apache.arrow.flight.FlightCallHeaders());
  }

  Catalogs catalogs() {
    return components.catalogs();
  }

  /** The current Lance snapshot of {@code ref}. */
  LanceSnapshot snapshot(TableRef ref) {
    return (LanceSnapshot) new LanceTableResolver(registry, allocator, Duration.ZERO).resolve(ref);
  }

  /** Copies lake.tpch.nation into a fresh dataset at a new location; returns the location. */
  String copyOfNation() {
    TableRef nation = new TableRef("lake", "tpch", "nation");
    LanceSnapshot s = snapshot(nation);
    String location =
        dir.resolve("copies").resolve("nation-" + copies.incrementAndGet() + ".lance").toString();
    List<ArrowReader> readers =
        new LanceTableReader(allocator).scan(nation, s, ScanRequest.all(1024), allocator);
    boolean append = false;
    for (ArrowReader r : readers) {
      LanceDatasets.write(location, r, allocator, append);
      append = true;
    }
    return location;
  }

  /** Appends every row of lake.tpch.nation to the dataset at {@code location}. */
  long appendNation(String location) {
    TableRef nation = new TableRef("lake", "tpch", "nation");
    long version = 0;
    for (ArrowReader r :
        new LanceTableReader(allocator)
            .scan(nation, snapshot(nation), ScanRequest.all(1024), allocator)) {
      version = LanceDatasets.write(location, r, allocator, true);
    }
    return version;
  }

  /** A plain in-memory DuckDB holding the same TPC-H rows under the same names. */
  Connection referenceDuckDb() throws Exception {
    DuckDBConnection c = (DuckDBConnection) DriverManager.getConnection("jdbc:duckdb:");
    try (Statement s = c.createStatement()) {
      s.execute("ATTACH ':memory:' AS lake");
      s.execute("CREATE SCHEMA lake.tpch");
      LanceTableReader reader = new LanceTableReader(allocator);
      int n = 0;
      for (String t : TPCH) {
        TableRef ref = new TableRef("lake", "tpch", t);
        boolean created = false;
        for (ArrowReader r : reader.scan(ref, snapshot(ref), ScanRequest.all(8192), allocator)) {
          String name = "src_" + n++;
          try (ArrowArrayStream stream = ArrowArrayStream.allocateNew(allocator)) {
            Data.exportArrayStream(allocator, r, stream);
            c.registerArrowStream(name, stream);
            s.execute(
                created
                    ? "INSERT INTO lake.tpch." + t + " SELECT * FROM " + name
                    : "CREATE TABLE lake.tpch." + t + " AS SELECT * FROM " + name);
            created = true;
          }
        }
      }
    }
    return c;
  }

  @Override
  public void close() {
    try {
      server.close();
      durable.ifPresent(DurableTier::close);
    } finally {
      try {
        components.close();
      } finally {
        allocator.close();
      }
    }
  }

  /** The real engine, counting executions (a decorator of our own port). */
  static final class CountingEngine extends ForwardingQueryEngine {
    private final QueryEngine delegate;
    final AtomicInteger executions = new AtomicInteger();

    CountingEngine(QueryEngine delegate) {
      this.delegate = delegate;
    }

    @Override
    protected QueryEngine delegate() {
      return delegate;
    }

    @Override
    public QueryExecution execute(
        AdmittedQuery query,
        List<Object> parameters,
        SnapshotSet snapshots,
        BufferAllocator allocator) {
      executions.incrementAndGet();
      return delegate.execute(query, parameters, snapshots, allocator);
    }

    @Override
    public QueryExecution execute(
        AdmittedQuery query,
        List<Object> parameters,
        SnapshotSet snapshots,
        BufferAllocator allocator,
        Duration timeout) {
      executions.incrementAndGet();
      return delegate.execute(query, parameters, snapshots, allocator, timeout);
    }
  }
}
