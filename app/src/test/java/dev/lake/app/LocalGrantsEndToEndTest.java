package dev.lake.app;

import static dev.lake.frontdoor.TestLake.bearer;
import static org.assertj.core.api.Assertions.assertThat;

import dev.lake.core.EmptyArrowReader;
import dev.lake.core.TableRef;
import dev.lake.core.local.FileRegistry;
import dev.lake.lance.LanceDatasets;
import dev.lake.lance.LanceFormat;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.apache.arrow.flight.FlightClient;
import org.apache.arrow.flight.FlightStream;
import org.apache.arrow.flight.Location;
import org.apache.arrow.flight.sql.FlightSqlClient;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.Schema;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/**
 * Local mode serves what is registered: every lake namespace is granted to the demo principal,
 * {@code --grant} adds others, demo data depends only on the demo tables, a principals file edited
 * by hand is never overwritten, and tables outside the data directory are read only when {@code
 * --data-locations} names their directory.
 */
class LocalGrantsEndToEndTest {
  static final String TOKEN = "local-grants-token";
  @TempDir Path dir;

  static LocalLake start(Path data, String... flags) {
    String[] args = new String[flags.length + 4];
    args[0] = "--port=0";
    args[1] = "--scale=0.001";
    args[2] = "--token=" + TOKEN;
    args[3] = "--data-dir=" + data;
    System.arraycopy(flags, 0, args, 4, flags.length);
    CommandLine cli = LakeCli.commandLine(Map.of());
    cli.parseArgs(concat("local", args));
    LocalCommand local = (LocalCommand) cli.getSubcommands().get("local").getCommand();
    return LocalLake.start(local.options(), new PrintWriter(out, true));
  }

  static StringWriter out = new StringWriter();

  static String[] concat(String first, String[] rest) {
    String[] all = new String[rest.length + 1];
    all[0] = first;
    System.arraycopy(rest, 0, all, 1, rest.length);
    return all;
  }

  static long count(LocalLake lake, String table) throws Exception {
    try (RootAllocator allocator = new RootAllocator();
        FlightSqlClient client =
            new FlightSqlClient(
                FlightClient.builder(allocator, Location.forGrpcInsecure("127.0.0.1", lake.port()))
                    .build())) {
      var info = client.execute("SELECT count(*) FROM " + table, bearer(TOKEN));
      try (FlightStream stream =
          client.getStream(info.getEndpoints().get(0).getTicket(), bearer(TOKEN))) {
        assertThat(stream.next()).isTrue();
        return ((Number) stream.getRoot().getVector(0).getObject(0)).longValue();
      }
    }
  }

  @Test
  void registeredNamespaces_areServed_demoStillGenerated_andEditedPrincipalsKept()
      throws Exception {
    // GIVEN a data directory whose registry already holds lake.bi.events and lake.tpch.extra
    // (registered before the first start), datasets in a directory beside it
    Path data = dir.resolve("lake");
    Path own = dir.resolve("own");
    Files.createDirectories(data);
    FileRegistry registry = new FileRegistry(data.resolve("registry.json"));
    try (RootAllocator allocator = new RootAllocator()) {
      Schema schema = new Schema(List.of(Field.nullable("x", new ArrowType.Int(64, true))));
      for (String name : List.of("events", "extra")) {
        String location = own.resolve(name + ".lance").toString();
        LanceDatasets.write(location, new EmptyArrowReader(allocator, schema), allocator, false);
      }
      LanceFormat.register(
          registry, TableRef.parse("lake.bi.events"), own.resolve("events.lance").toString());
      LanceFormat.register(
          registry, TableRef.parse("lake.tpch.extra"), own.resolve("extra.lance").toString());
    }

    // WHEN local mode starts with an extra --grant, and --data-locations naming that directory
    try (LocalLake lake = start(data, "--grant=iceberg.demo", "--data-locations=" + own)) {
      // THEN the demo data was generated anyway (under the data directory, which local mode
      // still allows), and both namespaces are served
      assertThat(out.toString()).contains("Generating TPC-H demo data");
      assertThat(count(lake, "lake.tpch.region")).isEqualTo(5);
      assertThat(count(lake, "lake.bi.events")).isZero();
      assertThat(count(lake, "lake.tpch.extra")).isZero();
    }
    String principals = Files.readString(data.resolve("principals.json"), StandardCharsets.UTF_8);
    assertThat(principals).contains("\"lake.tpch\"", "\"lake.bi\"", "\"iceberg.demo\"");

    // WHEN the principals file is edited by hand (lake.bi taken away) and local mode restarts
    String edited = principals.replace("\"lake.bi\",", "");
    assertThat(edited).isNotEqualTo(principals);
    Files.writeString(data.resolve("principals.json"), edited, StandardCharsets.UTF_8);
    out.getBuffer().setLength(0);
    try (LocalLake lake = start(data, "--data-locations=" + own)) {
      // THEN the file is served as edited and left unchanged, and the start says so
      assertThat(Files.readString(data.resolve("principals.json"), StandardCharsets.UTF_8))
          .isEqualTo(edited);
      assertThat(out.toString()).contains("was edited by hand; lake serves it as it is");
      assertThat(out.toString()).doesNotContain("Generating TPC-H demo data");
      assertThat(count(lake, "lake.tpch.region")).isEqualTo(5);
      org.assertj.core.api.Assertions.assertThatThrownBy(() -> count(lake, "lake.bi.events"))
          .hasMessageContaining("does not exist");
      assertThat(count(lake, "lake.tpch.extra")).isZero();
    }
    // AND without --data-locations the directory beside is not read (local mode allows only its
    // data directory), naming the table
    try (LocalLake lake = start(data)) {
      org.assertj.core.api.Assertions.assertThatThrownBy(() -> count(lake, "lake.tpch.extra"))
          .hasMessageContaining(
              "Table lake.tpch.extra refers to data outside this deployment's data locations");
      assertThat(count(lake, "lake.tpch.region")).isEqualTo(5);
    }
  }
}
