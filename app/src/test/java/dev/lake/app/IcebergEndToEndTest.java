package dev.lake.app;

import static dev.lake.frontdoor.TestLake.bearer;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.lake.core.DataLocations;
import dev.lake.iceberg.IcebergConfig;
import dev.lake.iceberg.demo.DemoTables;
import dev.lake.iceberg.demo.RestCatalogFixture;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeSet;
import org.apache.arrow.adbc.core.AdbcConnection;
import org.apache.arrow.adbc.core.AdbcDatabase;
import org.apache.arrow.adbc.core.AdbcDriver;
import org.apache.arrow.adbc.core.AdbcStatement;
import org.apache.arrow.adbc.driver.flightsql.FlightSqlDriverFactory;
import org.apache.arrow.flight.FlightClient;
import org.apache.arrow.flight.FlightRuntimeException;
import org.apache.arrow.flight.FlightStatusCode;
import org.apache.arrow.flight.FlightStream;
import org.apache.arrow.flight.Location;
import org.apache.arrow.flight.Ticket;
import org.apache.arrow.flight.sql.FlightSqlClient;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.ipc.ArrowReader;
import org.apache.iceberg.Table;
import org.apache.iceberg.catalog.Namespace;
import org.apache.iceberg.catalog.SupportsNamespaces;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.data.IcebergGenerics;
import org.apache.iceberg.data.Record;
import org.apache.iceberg.io.CloseableIterable;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Iceberg federation end to end: the Iceberg project's own REST catalog server on loopback, lake's
 * local mode wired with {@code --iceberg-rest/--iceberg-allow}, and the official JDBC and ADBC
 * clients.
 */
class IcebergEndToEndTest {
  @TempDir static Path dir;
  static RestCatalogFixture catalog;
  static LocalLake lake;
  static Table nation;
  static BufferAllocator allocator;
  static FlightSqlClient client;

  @BeforeAll
  static void start() throws Exception {
    catalog = RestCatalogFixture.startLocal(dir.resolve("catalog"));
    nation = DemoTables.create(catalog.backend());
    // a table that exists in the catalog but is not allowlisted
    ((SupportsNamespaces) catalog.backend()).createNamespace(Namespace.of("hidden"));
    DemoTables.append(
        catalog.backend().createTable(TableIdentifier.of("hidden", "secret"), DemoTables.NATION),
        DemoTables.nations(0, 3));
    IcebergConfig config = IcebergConfig.fromFlags(catalog.uri().toString(), null, "demo");
    lake =
        LocalLake.start(
            LocalLake.options(dir.resolve("lake"))
                .port(0)
                .token(Optional.of("iceberg-token"))
                .formatSettings(
                    List.of(
                        config,
                        DataLocations.parse(
                            dir.resolve("catalog").resolve("warehouse").toString(), true)))
                // the cache on, as bin/lake local runs it (a share of memory)
                .engine(
                    Optional.of(
                        dev.lake.engine.EngineConfig.defaults(dir.resolve("lake/spill"))
                            .withSnapshotCacheBytes(64L << 20)))
                .build(),
            new PrintWriter(new StringWriter()));
    allocator = new RootAllocator();
    client =
        new FlightSqlClient(
            FlightClient.builder(allocator, Location.forGrpcInsecure("127.0.0.1", lake.port()))
                .build());
  }

  @AfterAll
  static void stop() throws Exception {
    client.close();
    allocator.close();
    lake.close();
    catalog.close();
  }

  /** The nation rows as Iceberg's own generic reader sees them at the current snapshot. */
  static List<String> icebergRows(Table table) throws Exception {
    table.refresh();
    List<String> rows = new ArrayList<>();
    try (CloseableIterable<Record> records = IcebergGenerics.read(table).build()) {
      for (Record r : records) {
        rows.add(r.getField("n_nationkey") + "|" + r.getField("n_name"));
      }
    }
    rows.sort(null);
    return rows;
  }

  @Test
  void jdbc_readsIcebergTable_equalToIcebergsGenericReader() throws Exception {
    // GIVEN the demo nation table in the REST catalog
    List<String> expected = icebergRows(nation);
    // WHEN it is queried through the official JDBC driver
    List<String> actual = new ArrayList<>();
    try (Connection c = DriverManager.getConnection(lake.jdbcUrl());
        Statement s = c.createStatement();
        ResultSet rs = s.executeQuery("SELECT n_nationkey, n_name FROM iceberg.demo.nation")) {
      while (rs.next()) {
        actual.add(rs.getInt(1) + "|" + rs.getString(2));
      }
    }
    // THEN the rows are exactly Iceberg's
    actual.sort(null);
    assertThat(actual).hasSize(25).isEqualTo(expected);
  }

  @Test
  void jdbc_joinsIcebergAndLanceTables() throws Exception {
    try (Connection c = DriverManager.getConnection(lake.jdbcUrl());
        Statement s = c.createStatement();
        ResultSet rs =
            s.executeQuery(
                "SELECT count(*) FROM iceberg.demo.nation i JOIN lake.tpch.nation l"
                    + " ON i.n_nationkey = l.n_nationkey AND i.n_name = l.n_name")) {
      assertThat(rs.next()).isTrue();
      assertThat(rs.getLong(1)).isEqualTo(25);
    }
  }

  @Test
  void adbc_readsIcebergTable() throws Exception {
    Map<String, Object> params = new HashMap<>();
    AdbcDriver.PARAM_URI.set(params, "grpc+tcp://127.0.0.1:" + lake.port());
    params.put("adbc.flight.sql.rpc.call_header.authorization", "Bearer iceberg-token");
    TreeSet<Integer> keys = new TreeSet<>();
    try (AdbcDatabase db = new FlightSqlDriverFactory().getDriver(allocator).open(params);
        AdbcConnection c = db.connect();
        AdbcStatement s = c.createStatement()) {
      s.setSqlQuery("SELECT r_regionkey, r_name FROM iceberg.demo.region");
      try (AdbcStatement.QueryResult result = s.executeQuery()) {
        ArrowReader reader = result.getReader();
        while (reader.loadNextBatch()) {
          VectorSchemaRoot root = reader.getVectorSchemaRoot();
          for (int i = 0; i < root.getRowCount(); i++) {
            keys.add(((Number) root.getVector(0).getObject(i)).intValue());
          }
        }
      }
    }
    assertThat(keys).containsExactly(0, 1, 2, 3, 4);
  }

  static long count(Ticket ticket) throws Exception {
    long rows = 0;
    try (FlightStream stream = client.getStream(ticket, bearer("iceberg-token"))) {
      while (stream.next()) {
        rows += stream.getRoot().getRowCount();
      }
    }
    return rows;
  }

  @Test
  void doGet_readsSealedSnapshot_afterCommit_andFailsClosed_afterExpiry() throws Exception {
    // GIVEN a pinned copy of the nation table and a ticket sealed at its current snapshot
    Table pinned =
        catalog.backend().createTable(TableIdentifier.of("demo", "pinned"), DemoTables.NATION);
    DemoTables.append(pinned, DemoTables.nations(0, 10));
    long sealedSnapshot = pinned.currentSnapshot().snapshotId();
    Ticket ticket =
        client
            .execute("SELECT * FROM iceberg.demo.pinned", bearer("iceberg-token"))
            .getEndpoints()
            .get(0)
            .getTicket();
    // WHEN a new snapshot is committed
    DemoTables.append(pinned, DemoTables.nations(10, 25));
    // THEN DoGet still returns the sealed snapshot's rows
    assertThat(count(ticket)).isEqualTo(10);
    // AND WHEN retention expires the sealed snapshot
    pinned.expireSnapshots().expireSnapshotId(sealedSnapshot).commit();
    // THEN DoGet fails closed and names the snapshot, never falling forward to the current one
    assertNoLongerRetained(ticket, sealedSnapshot, "iceberg.demo.pinned");
  }

  private static void assertNoLongerRetained(Ticket ticket, long snapshot, String table) {
    assertThatThrownBy(() -> count(ticket))
        .isInstanceOf(FlightRuntimeException.class)
        .hasMessageContaining("snapshot " + snapshot + " of " + table + " is no longer retained")
        .satisfies(
            e ->
                assertThat(((FlightRuntimeException) e).status().code())
                    .isEqualTo(FlightStatusCode.NOT_FOUND));
  }

  @Test
  void doGet_servedFromTheSnapshotCache_stillFailsClosed_afterExpiry() throws Exception {
    // GIVEN a table whose snapshot is served from the engine's snapshot cache: distinct statements
    // (result reuse answers a repeated one without executing) read it until a copy serves them
    Table cached =
        catalog.backend().createTable(TableIdentifier.of("demo", "cached"), DemoTables.NATION);
    DemoTables.append(cached, DemoTables.nations(0, 10));
    long sealedSnapshot = cached.currentSnapshot().snapshotId();
    long hits = lake.cacheStats().snapshotHits();
    long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
    for (int k = 0; lake.cacheStats().snapshotHits() == hits; k++) {
      assertThat(System.nanoTime()).as("served from a copy within 60 s").isLessThan(deadline);
      assertThat(count(ticket("SELECT * FROM iceberg.demo.cached WHERE n_nationkey > " + (-1 - k))))
          .isEqualTo(10);
    }
    // AND a ticket sealed at that snapshot, then a newer commit
    Ticket sealed = ticket("SELECT * FROM iceberg.demo.cached WHERE n_nationkey < 100");
    DemoTables.append(cached, DemoTables.nations(10, 25));
    assertThat(count(sealed)).isEqualTo(10);

    // WHEN retention expires the sealed snapshot in the catalog
    cached.expireSnapshots().expireSnapshotId(sealedSnapshot).commit();

    // THEN the DoGet fails closed although a copy of the snapshot is cached, naming the snapshot
    assertNoLongerRetained(sealed, sealedSnapshot, "iceberg.demo.cached");
    // AND a fresh query reads the current snapshot
    assertThat(count(ticket("SELECT * FROM iceberg.demo.cached"))).isEqualTo(25);
  }

  @Test
  void doGet_whoseCatalogCheckIsAnswered304_stillRefusesAfterExpiryOrDrop_andFreshQueriesWork()
      throws Exception {
    // GIVEN a ticket sealed at a snapshot of demo.etag, read until the catalog answers the DoGet's
    // check 304 Not Modified (the REST client's table cache sends If-None-Match with the ETag of
    // the metadata it holds; Iceberg's REST server derives the ETag from the metadata location)
    Table etag =
        catalog.backend().createTable(TableIdentifier.of("demo", "etag"), DemoTables.NATION);
    DemoTables.append(etag, DemoTables.nations(0, 10));
    long sealedSnapshot = etag.currentSnapshot().snapshotId();
    Ticket sealed = ticket("SELECT * FROM iceberg.demo.etag");
    assertThat(count(sealed)).isEqualTo(10);
    catalog.resetRequests();
    assertThat(count(sealed)).isEqualTo(10);
    assertThat(count(sealed)).isEqualTo(10);
    assertThat(catalog.loadTableStatuses("demo", "etag"))
        .hasSizeGreaterThanOrEqualTo(2)
        .containsOnly(304);

    // WHEN a commit adds a snapshot (new metadata file, so a new ETag)
    DemoTables.append(etag, DemoTables.nations(10, 25));
    catalog.resetRequests();
    // THEN the next check loads the new metadata in full and still reads the sealed snapshot
    assertThat(count(sealed)).isEqualTo(10);
    assertThat(catalog.loadTableStatuses("demo", "etag")).contains(200);
    // AND the check after that is a 304 again
    catalog.resetRequests();
    assertThat(count(sealed)).isEqualTo(10);
    assertThat(catalog.loadTableStatuses("demo", "etag")).isNotEmpty().containsOnly(304);

    // WHEN retention expires the sealed snapshot between two DoGets
    etag.expireSnapshots().expireSnapshotId(sealedSnapshot).commit();
    catalog.resetRequests();
    // THEN the DoGet is refused (its check got the new metadata, not a 304) and a fresh query works
    assertNoLongerRetained(sealed, sealedSnapshot, "iceberg.demo.etag");
    assertThat(catalog.loadTableStatuses("demo", "etag")).contains(200);
    Ticket current = ticket("SELECT * FROM iceberg.demo.etag");
    assertThat(count(current)).isEqualTo(25);
    catalog.resetRequests();
    assertThat(count(current)).isEqualTo(25);
    assertThat(catalog.loadTableStatuses("demo", "etag")).isNotEmpty().containsOnly(304);

    // WHEN the table is dropped between two DoGets of a warm ticket
    catalog.backend().dropTable(TableIdentifier.of("demo", "etag"), true);
    // THEN the DoGet is refused as dropped
    assertThatThrownBy(() -> count(current))
        .isInstanceOf(FlightRuntimeException.class)
        .hasMessageContaining("table iceberg.demo.etag was dropped")
        .satisfies(
            e ->
                assertThat(((FlightRuntimeException) e).status().code())
                    .isEqualTo(FlightStatusCode.NOT_FOUND));
    // AND once recreated, the old ticket is refused as replaced and a fresh query reads the new one
    DemoTables.append(
        catalog.backend().createTable(TableIdentifier.of("demo", "etag"), DemoTables.NATION),
        DemoTables.nations(0, 5));
    assertThatThrownBy(() -> count(current))
        .isInstanceOf(FlightRuntimeException.class)
        .hasMessageContaining("table iceberg.demo.etag was replaced");
    assertThat(count(ticket("SELECT * FROM iceberg.demo.etag WHERE n_nationkey >= 0")))
        .isEqualTo(5);
  }

  private static Ticket ticket(String sql) {
    return client.execute(sql, bearer("iceberg-token")).getEndpoints().get(0).getTicket();
  }

  @Test
  void notAllowlisted_andMissing_getIdenticalErrors() {
    FlightRuntimeException hidden = failure("SELECT * FROM iceberg.hidden.secret");
    FlightRuntimeException missing = failure("SELECT * FROM iceberg.hidden.nosuch");
    assertThat(hidden.status().code()).isEqualTo(FlightStatusCode.NOT_FOUND);
    assertThat(missing.status().code()).isEqualTo(hidden.status().code());
    assertThat(hidden.getMessage()).isEqualTo("Table iceberg.hidden.secret does not exist");
    assertThat(missing.getMessage()).isEqualTo("Table iceberg.hidden.nosuch does not exist");
  }

  private static FlightRuntimeException failure(String sql) {
    try {
      client.execute(sql, bearer("iceberg-token"));
    } catch (FlightRuntimeException e) {
      return e;
    }
    throw new AssertionError("query succeeded: " + sql);
  }
}
