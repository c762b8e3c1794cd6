package dev.lake.bench;

import dev.lake.bench.ClientSpec.Side;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.ThreadLocalRandom;
import java.util.stream.Stream;
import org.apache.arrow.flight.CallHeaders;
import org.apache.arrow.flight.CallOption;
import org.apache.arrow.flight.FlightCallHeaders;
import org.apache.arrow.flight.FlightClient;
import org.apache.arrow.flight.FlightDescriptor;
import org.apache.arrow.flight.FlightEndpoint;
import org.apache.arrow.flight.FlightInfo;
import org.apache.arrow.flight.FlightRuntimeException;
import org.apache.arrow.flight.FlightStatusCode;
import org.apache.arrow.flight.FlightStream;
import org.apache.arrow.flight.HeaderCallOption;
import org.apache.arrow.flight.Location;
import org.apache.arrow.flight.sql.FlightSqlClient;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.ipc.ArrowReader;
import org.duckdb.DuckDBResultSet;

/**
 * The client sides a loop can run. One instance per client JVM; Flight clients and the DuckDB
 * database are opened once per target and shared by concurrent runs (both are thread-safe; each
 * DuckDB run takes its own connection).
 */
final class ClientSides implements AutoCloseable {
  /**
   * What one run of a side received; {@code extra} is side-specific (POLL: submit → done nanos;
   * FLIGHT: endpoints fetched; FLIGHT_SQL_INFO: endpoints returned).
   */
  record Received(long bytes, long rows, long extra) {}

  private final BufferAllocator allocator;
  private final CallOption auth;
  private final String token;
  private final Map<String, FlightClient> flightClients = new HashMap<>();
  private final Map<String, Connection> duckdbs = new HashMap<>();
  private final List<AutoCloseable> closeables = new ArrayList<>();
  private final ThreadLocal<Map<String, Connection>> threadConnections =
      ThreadLocal.withInitial(HashMap::new);

  ClientSides(BufferAllocator allocator, String token) {
    this.allocator = allocator;
    CallHeaders headers = new FlightCallHeaders();
    headers.insert("authorization", "Bearer " + token);
    this.auth = new HeaderCallOption(headers);
    this.token = token;
  }

  /** Opens what {@code side} needs; called once per side before any run. */
  synchronized void prepare(Side side) throws Exception {
    switch (side.kind()) {
      case FLIGHT_SQL, FLIGHT_SQL_INFO, FLIGHT, POLL -> flightClient(side.target());
      case DUCKDB -> duckdb(side.target());
      case JDBC -> jdbcConnection(side.target());
    }
  }

  /** Runs {@code side} once, draining its whole result. */
  Received runOnce(Side side) throws Exception {
    return switch (side.kind()) {
      case FLIGHT_SQL -> flightSql(side);
      case FLIGHT_SQL_INFO -> {
        FlightInfo info =
            planRetryingWhenBusy(new FlightSqlClient(flightClient(side.target())), side);
        yield new Received(0, 0, info.getEndpoints().size());
      }
      case FLIGHT -> flight(side);
      case DUCKDB -> duckdbQuery(side);
      case POLL -> PollSide.run(flightClient(side.target()), side, auth);
      case JDBC -> jdbcQuery(side);
    };
  }

  /**
   * GetFlightInfo as a well-behaved client sends it: lake's bounded Flight executor answers a burst
   * beyond its in-flight limit with RESOURCE_EXHAUSTED "Server busy … retry later", so the call is
   * retried after a short jittered back-off, for at most {@link #BUSY_RETRY_BUDGET}.
   */
  private FlightInfo planRetryingWhenBusy(FlightSqlClient sql, Side side) throws Exception {
    long deadline = System.nanoTime() + BUSY_RETRY_BUDGET.toNanos();
    for (int attempt = 1; ; attempt++) {
      try {
        return sql.execute(side.query(), auth);
      } catch (FlightRuntimeException e) {
        if (!busy(e, false) || System.nanoTime() > deadline) {
          throw e;
        }
        backOff(attempt);
      }
    }
  }

  /**
   * Whether {@code e} says "Server busy, retry later": RESOURCE_EXHAUSTED from the Flight executor,
   * and with {@code admission} also UNAVAILABLE from a full admission gate (its queue wait ran out:
   * M1's 10 clients share the tenant's 4 query slots, which on a loaded machine can take longer
   * than the 30 s queue wait).
   */
  private static boolean busy(FlightRuntimeException e, boolean admission) {
    FlightStatusCode code = e.status().code();
    return code == FlightStatusCode.RESOURCE_EXHAUSTED
        || (admission
            && code == FlightStatusCode.UNAVAILABLE
            && String.valueOf(e.getMessage()).contains("Server busy"));
  }

  private static void backOff(int attempt) throws InterruptedException {
    long backoffMillis = Math.min(100, 5L * attempt);
    Thread.sleep(backoffMillis + ThreadLocalRandom.current().nextLong(backoffMillis + 1));
  }

  private static final Duration BUSY_RETRY_BUDGET = Duration.ofSeconds(60);

  /**
   * How long a query side with {@code retryBusy} keeps asking: at SF 1 M1's 10 lineitem streams on
   * the tenant's 4 slots took 217 s at load 16, so the last ones wait about three minutes; 60 s
   * failed M1 there.
   */
  private static final Duration BUSY_QUERY_RETRY_BUDGET = Duration.ofMinutes(10);

  private Received flightSql(Side side) throws Exception {
    FlightSqlClient sql = new FlightSqlClient(flightClient(side.target()));
    boolean retryBusy = Boolean.parseBoolean(side.options().getOrDefault("retryBusy", "false"));
    long deadline = System.nanoTime() + BUSY_QUERY_RETRY_BUDGET.toNanos();
    for (int attempt = 1; ; attempt++) {
      long[] totals = new long[2];
      try {
        FlightInfo info = sql.execute(FreshText.next(side), auth);
        for (FlightEndpoint endpoint : info.getEndpoints()) {
          try (FlightStream stream = sql.getStream(endpoint.getTicket(), auth)) {
            drain(stream, totals);
          }
        }
        return new Received(totals[0], totals[1], 0);
      } catch (FlightRuntimeException e) {
        // only a call refused before any data is retried (a busy gate answers before streaming)
        if (!retryBusy || totals[1] != 0 || !busy(e, true) || System.nanoTime() > deadline) {
          throw e;
        }
        backOff(attempt);
      }
    }
  }

  private Received flight(Side side) throws Exception {
    FlightClient client = flightClient(side.target());
    FlightInfo info =
        client.getInfo(FlightDescriptor.command(side.query().getBytes(StandardCharsets.UTF_8)));
    int parallel = Integer.parseInt(side.options().getOrDefault("parallel", "1"));
    long[] totals = fetchAll(client, info.getEndpoints(), parallel);
    return new Received(totals[0], totals[1], info.getEndpoints().size());
  }

  /** DoGet of every endpoint with {@code parallel} streams at once; returns {Arrow bytes, rows}. */
  static long[] fetchAll(
      FlightClient client, List<FlightEndpoint> endpoints, int parallel, CallOption... options)
      throws Exception {
    long[] totals = new long[2];
    if (parallel <= 1) {
      for (FlightEndpoint endpoint : endpoints) {
        try (FlightStream stream = client.getStream(endpoint.getTicket(), options)) {
          drain(stream, totals);
        }
      }
      return totals;
    }
    ExecutorService pool = Executors.newFixedThreadPool(parallel);
    try {
      List<Future<long[]>> futures = new ArrayList<>();
      for (FlightEndpoint endpoint : endpoints) {
        futures.add(
            pool.submit(
                () -> {
                  long[] t = new long[2];
                  try (FlightStream stream = client.getStream(endpoint.getTicket(), options)) {
                    drain(stream, t);
                  }
                  return t;
                }));
      }
      for (Future<long[]> f : futures) {
        long[] t = f.get();
        totals[0] += t[0];
        totals[1] += t[1];
      }
    } finally {
      pool.shutdownNow();
    }
    return totals;
  }

  static void drain(FlightStream stream, long[] totals) {
    while (stream.next()) {
      VectorSchemaRoot root = stream.getRoot();
      totals[0] += arrowBytes(root);
      totals[1] += root.getRowCount();
    }
  }

  /** Bytes of Arrow buffers in {@code root}: the IPC body size of the batch, without padding. */
  static long arrowBytes(VectorSchemaRoot root) {
    long bytes = 0;
    for (FieldVector v : root.getFieldVectors()) {
      bytes += v.getBufferSize();
    }
    return bytes;
  }

  /**
   * A new statement on this thread's connection per run (as an application would issue one query),
   * result drained as Arrow like the Flight sides.
   */
  private Received duckdbQuery(Side side) throws Exception {
    Connection conn = threadConnection(side.target());
    try (Statement st = conn.createStatement();
        ResultSet rs = st.executeQuery(side.query());
        ArrowReader reader =
            (ArrowReader) ((DuckDBResultSet) rs).arrowExportStream(allocator, 65_536)) {
      long bytes = 0;
      long rows = 0;
      while (reader.loadNextBatch()) {
        VectorSchemaRoot root = reader.getVectorSchemaRoot();
        bytes += arrowBytes(root);
        rows += root.getRowCount();
      }
      return new Received(bytes, rows, 0);
    }
  }

  /**
   * A new statement on this thread's JDBC connection per run (as an application issues a query);
   * every value is read with {@code getObject}. Bytes are not known to JDBC: 0.
   */
  private Received jdbcQuery(Side side) throws Exception {
    Connection conn = jdbcConnection(side.target());
    try (Statement st = conn.createStatement();
        ResultSet rs = st.executeQuery(side.query())) {
      int columns = rs.getMetaData().getColumnCount();
      long rows = 0;
      while (rs.next()) {
        for (int c = 1; c <= columns; c++) {
          rs.getObject(c);
        }
        rows++;
      }
      return new Received(0, rows, 0);
    }
  }

  /**
   * This thread's connection of the Flight SQL JDBC driver to {@code target} (grpc://host:port).
   */
  private Connection jdbcConnection(String target) throws Exception {
    Map<String, Connection> mine = threadConnections.get();
    Connection c = mine.get("jdbc:" + target);
    if (c == null) {
      c = flightSqlJdbc(target, token);
      synchronized (this) {
        closeables.add(c);
      }
      mine.put("jdbc:" + target, c);
    }
    return c;
  }

  /** A connection of the Flight SQL JDBC driver to {@code target} (grpc://host:port), plaintext. */
  static Connection flightSqlJdbc(String target, String token) throws SQLException {
    URI uri = URI.create(target);
    return DriverManager.getConnection(
        "jdbc:arrow-flight-sql://"
            + uri.getHost()
            + ":"
            + uri.getPort()
            + "/?useEncryption=false&token="
            + token);
  }

  private Connection threadConnection(String parquetDir) throws Exception {
    Map<String, Connection> mine = threadConnections.get();
    Connection c = mine.get(parquetDir);
    if (c == null) {
      c = ((org.duckdb.DuckDBConnection) duckdb(parquetDir)).duplicate();
      synchronized (this) {
        closeables.add(c);
      }
      mine.put(parquetDir, c);
    }
    return c;
  }

  private synchronized FlightClient flightClient(String target) {
    return flightClients.computeIfAbsent(
        target,
        t -> {
          URI uri = URI.create(t);
          FlightClient c =
              FlightClient.builder(
                      allocator, Location.forGrpcInsecure(uri.getHost(), uri.getPort()))
                  .build();
          closeables.add(c);
          return c;
        });
  }

  /** The shared in-memory DuckDB over {@code parquetDir} ({@link #parquetViews}), opened once. */
  private synchronized Connection duckdb(String parquetDir) throws Exception {
    Connection existing = duckdbs.get(parquetDir);
    if (existing != null) {
      return existing;
    }
    Connection conn =
        parquetDir.startsWith(MEMORY)
            ? parquetTables(Path.of(parquetDir.substring(MEMORY.length())))
            : parquetViews(Path.of(parquetDir));
    closeables.add(conn);
    duckdbs.put(parquetDir, conn);
    return conn;
  }

  /** A DuckDB side's target prefix: the Parquet files loaded as DuckDB's own in-memory tables. */
  static final String MEMORY = "memory:";

  /**
   * A new in-memory DuckDB where every {@code <dir>/<table>.parquet} is loaded once into DuckDB's
   * own table {@code lake.tpch.<table>} (views {@code iceberg.tpch.<table>} over them): the limit
   * for a warm cache, since no reader of files can be faster than data already in the engine.
   */
  static Connection parquetTables(Path parquetDir) throws Exception {
    Connection conn = parquetViews(parquetDir);
    try (Statement st = conn.createStatement();
        Stream<Path> files = Files.list(parquetDir)) {
      for (Path f : files.filter(p -> p.toString().endsWith(".parquet")).toList()) {
        String table = f.getFileName().toString().replace(".parquet", "");
        String path = f.toAbsolutePath().toString().replace("'", "''");
        st.execute("DROP VIEW lake.tpch." + table);
        st.execute(
            "CREATE TABLE lake.tpch." + table + " AS SELECT * FROM read_parquet('" + path + "')");
        st.execute("DROP VIEW iceberg.tpch." + table);
        st.execute("CREATE VIEW iceberg.tpch." + table + " AS SELECT * FROM lake.tpch." + table);
      }
    } catch (SQLException e) {
      conn.close();
      throw e;
    }
    return conn;
  }

  /**
   * A new in-memory DuckDB where every {@code <dir>/<table>.parquet} is a view named {@code
   * lake.tpch.<table>} and {@code iceberg.tpch.<table>}, so lake's query texts run unchanged.
   */
  static Connection parquetViews(Path parquetDir) throws Exception {
    Connection conn = DriverManager.getConnection("jdbc:duckdb:");
    try (Statement st = conn.createStatement()) {
      for (String catalog : List.of("lake", "iceberg")) {
        st.execute("ATTACH ':memory:' AS " + catalog);
        st.execute("CREATE SCHEMA " + catalog + ".tpch");
      }
      try (Stream<Path> files = Files.list(parquetDir)) {
        for (Path f : files.filter(p -> p.toString().endsWith(".parquet")).toList()) {
          String table = f.getFileName().toString().replace(".parquet", "");
          String path = f.toAbsolutePath().toString().replace("'", "''");
          for (String catalog : List.of("lake", "iceberg")) {
            st.execute(
                "CREATE VIEW "
                    + catalog
                    + ".tpch."
                    + table
                    + " AS SELECT * FROM read_parquet('"
                    + path
                    + "')");
          }
        }
      }
    } catch (SQLException e) {
      conn.close();
      throw e;
    }
    return conn;
  }

  @Override
  public synchronized void close() throws Exception {
    for (int i = closeables.size() - 1; i >= 0; i--) {
      closeables.get(i).close();
    }
  }
}
