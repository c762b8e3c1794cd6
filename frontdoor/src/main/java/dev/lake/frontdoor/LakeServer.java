package dev.lake.frontdoor;

import static java.util.Objects.requireNonNull;

import dev.lake.core.ticket.TicketSealer;
import dev.lake.durable.DurableTier;
import io.grpc.netty.NettyServerBuilder;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.time.Clock;
import java.util.Optional;
import java.util.Properties;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import org.apache.arrow.flight.FlightServer;
import org.apache.arrow.flight.Location;
import org.apache.arrow.flight.sql.FlightSqlProducer;
import org.apache.arrow.flight.sql.SqlInfoBuilder;
import org.apache.arrow.flight.sql.impl.FlightSql.SqlSupportedTransaction;

/**
 * The running Flight SQL listener: checks the transport rule, wires the producer to the components
 * and installs bearer authentication in front of every RPC. Closing stops accepting calls, waits
 * briefly for running ones, and leaves the components to their owner.
 */
public final class LakeServer implements AutoCloseable {
  /** The server version reported through GetSqlInfo. */
  public static final String VERSION = "0.1.0";

  /** The Arrow version on the classpath, read from the Flight SQL jar (reported by GetSqlInfo). */
  static final String ARROW_VERSION = arrowVersion();

  private static final long SHUTDOWN_GRACE_SECONDS = 10;

  private final FlightServer server;
  private final FrontDoorConfig config;
  private final FlightExecutorConfig executorConfig;
  private final ResultStreamer streamer;
  private final ExecutorService executor;

  private LakeServer(
      FlightServer server,
      FrontDoorConfig config,
      FlightExecutorConfig executorConfig,
      ResultStreamer streamer,
      ExecutorService executor) {
    this.server = server;
    this.config = config;
    this.executorConfig = executorConfig;
    this.streamer = streamer;
    this.executor = executor;
  }

  /** Starts listening; throws {@link IllegalStateException} when the transport rule forbids it. */
  public static LakeServer start(
      FrontDoorConfig config, Components components, Authenticator principals, Clock clock) {
    return start(config, components, principals, clock, Optional.empty());
  }

  /**
   * Starts listening with the durable tier on when {@code durable} is present (the tier belongs to
   * the caller, like the components).
   */
  public static LakeServer start(
      FrontDoorConfig config,
      Components components,
      Authenticator principals,
      Clock clock,
      Optional<DurableTier> durable) {
    return start(config, components, principals, clock, durable, CallObserver.quiet());
  }

  /** As above, with every call's audit line and meters going to {@code observer}. */
  public static LakeServer start(
      FrontDoorConfig config,
      Components components,
      Authenticator principals,
      Clock clock,
      Optional<DurableTier> durable,
      CallObserver observer) {
    return start(
        config, components, principals, clock, durable, observer, FlightExecutorConfig.defaults());
  }

  /** As above, with every Flight call running on an executor bounded by {@code executorConfig}. */
  public static LakeServer start(
      FrontDoorConfig config,
      Components components,
      Authenticator principals,
      Clock clock,
      Optional<DurableTier> durable,
      CallObserver observer,
      FlightExecutorConfig executorConfig) {
    requireNonNull(observer, "observer is null");
    requireNonNull(durable, "durable is null");
    requireNonNull(executorConfig, "executorConfig is null");
    requireNonNull(config, "config is null");
    requireNonNull(components, "components is null");
    requireNonNull(principals, "principals is null");
    requireNonNull(clock, "clock is null");
    TransportPolicy.check(config);
    TicketSealer sealer = new TicketSealer(components.keys(), config.tickets(), clock);
    AdmissionGates gates =
        new AdmissionGates(
            config.maxConcurrentQueries(),
            config.maxConcurrentQueriesPerTenant(),
            config.queueWait());
    // part downloads stream finished results and run no engine work: a gate of their own
    AdmissionGates partGates =
        new AdmissionGates(
            config.maxConcurrentPartDownloads(),
            config.maxConcurrentPartDownloadsPerTenant(),
            config.queueWait());
    ResultStreamer streamer =
        new ResultStreamer(
            config.maxConcurrentQueries() + config.maxConcurrentPartDownloads(),
            config.idleStreamTimeout());
    StatementHandler statements =
        new StatementHandler(
            components.admission(),
            components.catalogs(),
            components.engine(),
            sealer,
            gates,
            streamer,
            components.allocator(),
            config,
            new TenantBudgets(config.budgets(), clock));
    Optional<DurableHandler> durableHandler =
        durable.map(
            tier ->
                new DurableHandler(
                    tier.queries(),
                    statements,
                    partGates,
                    streamer,
                    components.allocator(),
                    tier.config()));
    MetadataHandler metadata =
        new MetadataHandler(
            components.catalogs(), components.readers(), components.allocator(), gates);
    LakeFlightSqlProducer producer =
        new LakeFlightSqlProducer(
            statements, metadata, sqlInfo(), components.allocator(), durableHandler);
    Location location =
        config.tlsEnabled()
            ? Location.forGrpcTls(config.host(), config.port())
            : Location.forGrpcInsecure(config.host(), config.port());
    ExecutorService executor = CallLimit.executor(executorConfig);
    AuditMiddleware.Factory audit = new AuditMiddleware.Factory(observer, clock);
    FlightServer.Builder builder =
        FlightServer.builder(
                components.allocator(),
                location,
                new AuditingProducer(new FlightErrorEdge(producer)))
            .executor(executor)
            .middleware(AuditMiddleware.KEY, audit)
            .middleware(
                AuthMiddleware.KEY,
                audit.auditingRejections(new AuthMiddleware.Factory(principals)))
            .middleware(RequestHeaders.KEY, new RequestHeaders.Factory())
            // last, after every middleware that may refuse a call: see CallLimit
            .middleware(CallLimit.KEY, new CallLimit.Factory(CallLimit.limit(executorConfig)))
            .maxInboundMessageSize(config.maxInboundMessageBytes())
            // HTTP/2 MAX_CONCURRENT_STREAMS: one connection has at most half the calls CallLimit
            // admits in flight, so a burst on one connection waits in the client's stream buffer
            // instead of overflowing the executor's queue (the overflow lane would refuse it as
            // busy, see CallLimit#executor) or being refused as busy by CallLimit. Half, because a
            // finished stream frees its HTTP/2
            // slot a moment before its call is counted out of CallLimit.
            .transportHint(
                "grpc.builderConsumer",
                (Consumer<NettyServerBuilder>)
                    netty ->
                        netty.maxConcurrentCallsPerConnection(
                            streamsPerConnection(executorConfig)));
    try {
      if (config.tlsEnabled()) {
        builder.useTls(
            config.tlsCertificate().orElseThrow().toFile(),
            config.tlsPrivateKey().orElseThrow().toFile());
      }
      return new LakeServer(builder.build().start(), config, executorConfig, streamer, executor);
    } catch (RuntimeException e) {
      streamer.close();
      executor.shutdownNow();
      throw e;
    } catch (IOException e) {
      streamer.close();
      executor.shutdownNow();
      throw new UncheckedIOException(
          "cannot listen on " + config.host() + ":" + config.port() + ": " + e.getMessage(), e);
    }
  }

  /**
   * The version of the Flight SQL jar in use: its manifest's Implementation-Version, else its Maven
   * pom.properties (a repackaged jar may drop the manifest), else "unknown".
   */
  private static String arrowVersion() {
    String manifest = FlightSqlProducer.class.getPackage().getImplementationVersion();
    if (manifest != null && !manifest.isBlank()) {
      return manifest;
    }
    try (InputStream in =
        FlightSqlProducer.class.getResourceAsStream(
            "/META-INF/maven/org.apache.arrow/flight-sql/pom.properties")) {
      if (in != null) {
        Properties properties = new Properties();
        properties.load(in);
        return properties.getProperty("version", "unknown");
      }
    } catch (IOException e) {
      // fall through: the version is informational
    }
    return "unknown";
  }

  static SqlInfoBuilder sqlInfo() {
    return new SqlInfoBuilder()
        .withFlightSqlServerName("lake")
        .withFlightSqlServerVersion(VERSION)
        .withFlightSqlServerArrowVersion(ARROW_VERSION)
        .withFlightSqlServerReadOnly(true)
        .withFlightSqlServerSql(true)
        .withFlightSqlServerSubstrait(false)
        .withFlightSqlServerTransaction(SqlSupportedTransaction.SQL_SUPPORTED_TRANSACTION_NONE)
        .withFlightSqlServerCancel(true)
        .withFlightSqlServerBulkIngestion(false)
        .withSqlIdentifierQuoteChar("\"")
        .withSqlDdlCatalog(false)
        .withSqlDdlSchema(false)
        .withSqlDdlTable(false)
        .withSqlTransactionsSupported(false)
        .withSqlBatchUpdatesSupported(false)
        .withSqlSavepointsSupported(false)
        .withSqlNamedParametersSupported(false)
        .withSqlCatalogTerm("catalog")
        .withSqlSchemaTerm("namespace")
        .withSqlAllTablesAreSelectable(true);
  }

  /** The bound port (useful with port 0). */
  /** Calls one connection may have in flight: half of what {@link CallLimit} admits. */
  static int streamsPerConnection(FlightExecutorConfig executorConfig) {
    return Math.max(1, CallLimit.limit(executorConfig) / 2);
  }

  public int port() {
    return server.getPort();
  }

  public String host() {
    return config.host();
  }

  /** The settings this server runs with. */
  FrontDoorConfig config() {
    return config;
  }

  /** The bounds of the executor running this server's Flight calls. */
  FlightExecutorConfig flightExecutor() {
    return executorConfig;
  }

  /**
   * One line naming the load bounds in force: admission gates, Flight executor, idle-stream timeout
   * (printed at start so an operator sees what the flags and variables amounted to).
   */
  public String limitsLine() {
    return "limits: "
        + config.maxConcurrentQueries()
        + " queries ("
        + config.maxConcurrentQueriesPerTenant()
        + " per tenant, wait "
        + config.queueWait()
        + "), "
        + config.maxConcurrentPartDownloads()
        + " part downloads ("
        + config.maxConcurrentPartDownloadsPerTenant()
        + " per tenant), "
        + executorConfig.threads()
        + " Flight threads (queue "
        + executorConfig.queue()
        + "), idle stream "
        + config.idleStreamTimeout();
  }

  /** Result streams this server is producing now (for tests). */
  int activeStreams() {
    return streamer.active();
  }

  /** Blocks until the server shuts down. */
  public void awaitTermination() throws InterruptedException {
    server.awaitTermination();
  }

  /** Stops accepting calls, gives running calls a grace period, then closes the listener. */
  @Override
  public void close() {
    server.shutdown();
    try {
      if (!server.awaitTermination(SHUTDOWN_GRACE_SECONDS, TimeUnit.SECONDS)) {
        server.close();
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    } finally {
      streamer.close();
      executor.shutdownNow();
    }
  }
}
