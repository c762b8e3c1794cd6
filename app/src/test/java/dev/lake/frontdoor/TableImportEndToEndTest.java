package dev.lake.frontdoor;

import static dev.lake.frontdoor.TestLake.bearer;
import static org.assertj.core.api.Assertions.assertThat;

import dev.lake.app.LakeCli;
import dev.lake.aws.AwsClients;
import dev.lake.aws.testing.MotoExtension;
import dev.lake.core.StorageAccess;
import dev.lake.core.TableRef;
import dev.lake.core.local.FileRegistry;
import dev.lake.lance.LanceDatasets;
import dev.lake.lance.LanceStorage;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.Statement;
import java.util.Map;
import java.util.Optional;
import org.apache.arrow.flight.FlightInfo;
import org.apache.arrow.flight.FlightStream;
import org.apache.arrow.flight.Ticket;
import org.apache.arrow.flight.sql.FlightSqlClient;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/**
 * {@code bin/lake table import} into a running lake's registry: first import registers, {@code
 * --append}/{@code --overwrite} write versions that new statements see and sealed tickets never do;
 * bad input changes nothing and the next query works; S3 on the emulator.
 */
@ExtendWith(MotoExtension.class)
class TableImportEndToEndTest {
  @TempDir static Path dir;
  static TestLake lake;
  static FlightSqlClient flight;

  @BeforeAll
  static void start() {
    lake = TestLake.start(dir);
    flight = lake.client();
  }

  @AfterAll
  static void stop() throws Exception {
    flight.close();
    lake.close();
  }

  /** Writes rows {@code from} until {@code from + rows} as (id, name) with DuckDB's writer. */
  static Path write(String file, String format, int from, int rows) throws Exception {
    Path out = dir.resolve("in").resolve(file);
    Files.createDirectories(out.getParent());
    try (Connection c = new org.duckdb.DuckDBDriver().connect("jdbc:duckdb:", null);
        Statement s = c.createStatement()) {
      s.execute(
          "COPY (SELECT x AS id, 'n' || x AS name FROM range("
              + from
              + ", "
              + (from + rows)
              + ") t(x)) TO '"
              + out
              + "' (FORMAT "
              + format
              + ")");
    }
    return out;
  }

  record Run(int exit, String out, String err) {}

  static Run cli(String... args) {
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();
    CommandLine cli =
        LakeCli.commandLine(Map.of())
            .setOut(new PrintWriter(out, true))
            .setErr(new PrintWriter(err, true));
    int exit = cli.execute(args);
    return new Run(exit, out.toString(), err.toString());
  }

  static Run importInto(String name, String... rest) {
    String[] args = new String[4 + rest.length];
    args[0] = "table";
    args[1] = "import";
    args[2] = "--registry=" + lake.dir.resolve("registry.json");
    args[3] = name;
    System.arraycopy(rest, 0, args, 4, rest.length);
    return cli(args);
  }

  static Run register(String name, String location, String endpoint) {
    return cli(
        "table",
        "register",
        "--registry=" + lake.dir.resolve("registry.json"),
        "--aws-endpoint=" + endpoint,
        "--data-locations=s3://lake-import/bi/",
        name,
        location);
  }

  static Ticket ticket(String sql, String token) {
    FlightInfo info = flight.execute(sql, bearer(token));
    return info.getEndpoints().get(0).getTicket();
  }

  static long scalar(Ticket ticket, String token) throws Exception {
    try (FlightStream stream = flight.getStream(ticket, bearer(token))) {
      assertThat(stream.next()).isTrue();
      return ((Number) stream.getRoot().getVector(0).getObject(0)).longValue();
    }
  }

  static long count(String table) throws Exception {
    return scalar(ticket("SELECT count(*) FROM " + table, TestLake.ALICE), TestLake.ALICE);
  }

  @Test
  void import_registersOnFirstImport_andAppendIsSeenByNewStatementsOnly() throws Exception {
    // GIVEN 100 rows as CSV
    Path csv = write("events.csv", "csv", 0, 100);

    // WHEN they are imported as a new table
    Run first = importInto("lake.pin.events", csv.toString());

    // THEN the table is registered beside the registry's other tables and serves the rows
    assertThat(first.exit()).as(first.err()).isZero();
    String location = lake.dir.resolve("tables/pin/events.lance").toAbsolutePath().toString();
    assertThat(first.out())
        .contains("imported 100 rows (")
        .contains(" into lake.pin.events version 1 at " + location)
        .contains("registered lake.pin.events as lance")
        .contains("schema:\n  id BIGINT\n  name VARCHAR\n");
    assertThat(
            new FileRegistry(lake.dir.resolve("registry.json"))
                .find(TableRef.parse("lake.pin.events")))
        .hasValueSatisfying(e -> assertThat(e.location()).isEqualTo(location));
    assertThat(count("lake.pin.events")).isEqualTo(100);

    // AND a ticket sealed now keeps reading version 1 after --append and --overwrite
    Ticket sealed = ticket("SELECT count(*) FROM lake.pin.events", TestLake.ALICE);
    Run append =
        importInto(
            "lake.pin.events", "--append", write("more.parquet", "parquet", 100, 50).toString());
    assertThat(append.exit()).as(append.err()).isZero();
    assertThat(append.out()).contains("version 2").doesNotContain("registered");
    assertThat(count("lake.pin.events")).isEqualTo(150);
    Run overwrite =
        importInto("lake.pin.events", "--overwrite", write("few.json", "json", 0, 10).toString());
    assertThat(overwrite.exit()).as(overwrite.err()).isZero();
    assertThat(count("lake.pin.events")).isEqualTo(10);
    assertThat(scalar(sealed, TestLake.ALICE)).isEqualTo(100);
  }

  @Test
  void badImports_changeNothing_andAnotherTenantsNextQueryWorks() throws Exception {
    // GIVEN a table of 20 rows
    Path csv = write("base.csv", "csv", 0, 20);
    assertThat(importInto("lake.pin.base", csv.toString()).exit()).isZero();
    Path broken = Files.writeString(dir.resolve("in/broken.parquet"), "PAR1 not really");
    Path other = Files.writeString(dir.resolve("in/other.csv"), "a,b,c\n1,2,3\n");

    // WHEN the table is imported again without a mode, with both modes, from a broken file, with
    // another schema, into another catalog
    Run again = importInto("lake.pin.base", csv.toString());
    Run both = importInto("lake.pin.base", "--append", "--overwrite", csv.toString());
    Run bad = importInto("lake.pin.base", "--append", broken.toString());
    Run schema = importInto("lake.pin.base", "--append", other.toString());
    Run catalog = importInto("iceberg.pin.base", csv.toString());
    Run missing = importInto("lake.pin.nothing", dir.resolve("in/none.csv").toString());

    // THEN each exits 2 with one line naming the problem
    assertThat(again.exit()).isEqualTo(2);
    assertThat(again.err())
        .isEqualTo(
            "lake: lake.pin.base is registered; --append adds the rows, --overwrite replaces"
                + " them\n");
    assertThat(both.err()).isEqualTo("lake: --append and --overwrite exclude each other\n");
    assertThat(bad.exit()).isEqualTo(2);
    assertThat(bad.err()).startsWith("lake: Cannot read the input files: ");
    assertThat(schema.exit()).isEqualTo(2);
    assertThat(schema.err()).startsWith("lake: Lance did not write ");
    assertThat(catalog.err())
        .isEqualTo(
            "lake: Tables are imported into catalog lake (lake.<namespace>.<table>), not"
                + " iceberg.pin.base\n");
    assertThat(missing.err())
        .isEqualTo("lake: No such file or directory: " + dir.resolve("in/none.csv") + "\n");
    assertThat(
            new FileRegistry(lake.dir.resolve("registry.json"))
                .find(TableRef.parse("lake.pin.nothing")))
        .isEmpty();
    // AND the table still has its 20 rows, and another tenant's fresh query works
    assertThat(count("lake.pin.base")).isEqualTo(20);
    assertThat(
            scalar(
                ticket(
                    "SELECT count(*) FROM lake.tpch.region WHERE r_regionkey >= 0", TestLake.CAROL),
                TestLake.CAROL))
        .isEqualTo(5);
  }

  @Test
  void import_toS3_writesTheDatasetThere_andRegisterChecksItOpens() throws Exception {
    // GIVEN a bucket on the emulator
    String endpoint = MotoExtension.endpoint().toString();
    try (AwsClients aws = new AwsClients(MotoExtension.clientsConfig())) {
      aws.s3().createBucket(b -> b.bucket("lake-import"));
    }
    String location = "s3://lake-import/bi/sales.lance";
    Path parquet = write("sales.parquet", "parquet", 0, 30);

    // WHEN Parquet is imported there, and the dataset registered under a second name
    Run imported =
        importInto(
            "lake.pin.sales",
            "--aws-endpoint=" + endpoint,
            "--data-locations=s3://lake-import/bi/",
            "--location=" + location,
            parquet.toString());
    Run registered = register("lake.pin.sales2", location, endpoint);
    Run missing = register("lake.pin.sales3", "s3://lake-import/bi/none.lance", endpoint);

    // AND outside the deployment's data locations neither import nor register touches S3
    Run outside =
        importInto(
            "lake.pin.sales4",
            "--aws-endpoint=" + endpoint,
            "--data-locations=s3://lake-import/bi/",
            "--location=s3://lake-import/other/sales.lance",
            parquet.toString());
    assertThat(outside.exit()).isEqualTo(2);
    assertThat(outside.err())
        .startsWith(
            "lake: Location s3://lake-import/other/sales.lance lies outside this deployment's"
                + " data locations");

    // THEN the dataset is in S3 with its rows, and only the location that opens is registered
    assertThat(imported.exit()).as(imported.err()).isZero();
    assertThat(imported.out()).contains("imported 30 rows").contains("version 1 at " + location);
    StorageAccess access =
        new StorageAccess(
            Optional.of("us-east-1"),
            Optional.of(MotoExtension.endpoint()),
            Optional.of(new StorageAccess.StaticKey("test", "test")));
    assertThat(LanceDatasets.latestVersion(location, lake.allocator, LanceStorage.options(access)))
        .isEqualTo(1L);
    assertThat(registered.exit()).as(registered.err()).isZero();
    assertThat(missing.exit()).isEqualTo(2);
    assertThat(missing.err())
        .startsWith("lake: s3://lake-import/bi/none.lance does not open as a Lance dataset (");
  }
}
