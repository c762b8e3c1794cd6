package dev.lake.iceberg;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import dev.lake.core.FormatContext;
import dev.lake.core.FormatOptions;
import dev.lake.core.Grant;
import dev.lake.core.Json;
import dev.lake.core.SnapshotSet;
import dev.lake.core.TableFormats;
import dev.lake.core.TableRef;
import dev.lake.core.local.FileRegistry;
import dev.lake.core.testing.TestFormatContext;
import dev.lake.core.ticket.SnapshotCodec;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.apache.arrow.memory.RootAllocator;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

class IcebergFormatTest {
  @Test
  void iceberg_isInstalled_andKeepsItsEnvelopeEncoding() throws Exception {
    // GIVEN a sealed-set entry exactly as earlier releases wrote it for an Iceberg table
    JsonNode wire =
        Json.mapper()
            .readTree(
                "[{\"catalog\":\"iceberg\",\"namespace\":\"a.b\",\"table\":\"t\","
                    + "\"type\":\"iceberg\",\"catalogName\":\"rest\",\"tableUuid\":\"uuid-1\","
                    + "\"snapshotId\":42,\"metadataLocation\":\"s3://m.json\"}]");
    SnapshotSet set =
        new SnapshotSet(
            Map.of(
                new TableRef("iceberg", "a.b", "t"),
                new IcebergSnapshot("rest", "uuid-1", 42L, "s3://m.json")));
    // THEN the Iceberg module's format is registered and reads and writes that same form
    assertThat(TableFormats.installed().tags()).contains(IcebergFormat.TAG);
    assertThat(SnapshotCodec.fromJson(wire)).isEqualTo(set);
    assertThat(Json.mapper().readTree(SnapshotCodec.toJson(set).toString())).isEqualTo(wire);
  }

  @Test
  void open_servesNothing_whenNoRestCatalogIsConfigured(@TempDir Path dir) {
    // GIVEN a process whose settings name no Iceberg REST catalog (only how files would be read)
    try (RootAllocator allocator = new RootAllocator()) {
      FormatContext context =
          TestFormatContext.local(
              new FileRegistry(dir.resolve("registry.json")),
              allocator,
              List.of(IcebergFilesConfig.defaults()));
      // THEN the format builds no catalog
      assertThat(new IcebergFormat().open(context)).isEmpty();
    }
    // AND its tables are never registered in lake's registry (they come from the REST catalog)
    assertThatThrownBy(() -> TableFormats.installed().checkEntry(IcebergFormat.TAG, "/t", Map.of()))
        .hasMessage("Tables of format 'iceberg' are not registered in lake's registry");
  }

  /** The settings {@code args} give the format's own options, parsed as a lake command does. */
  private static List<Object> settings(String... args) {
    FormatOptions options = new IcebergFormat().newOptions().orElseThrow();
    new CommandLine(options).parseArgs(args);
    return options.settings();
  }

  @Test
  void options_areTheIcebergFlags_offUnlessARestCatalogIsGiven() {
    // GIVEN no flags THEN federation is off and data files are read as by default
    assertThat(settings()).containsExactly(IcebergFilesConfig.defaults());
    // GIVEN a REST catalog, its allowlist and file flags
    List<Object> settings =
        settings(
            "--iceberg-rest",
            "http://127.0.0.1:8181",
            "--iceberg-allow",
            "demo,\"a.b\",ops.orders",
            "--no-iceberg-direct-reads",
            "--iceberg-file-cache-mb",
            "64");
    // THEN they become the format's validated records
    assertThat(settings)
        .containsExactly(
            IcebergConfig.fromFlags("http://127.0.0.1:8181", null, "demo,\"a.b\",ops.orders"),
            new IcebergFilesConfig(false, Optional.empty(), 64L << 20));
    // AND the allowlist is what a principal needs to read the federated tables (a set: its
    // namespaces come in no particular order)
    assertThat(new IcebergFormat().grantsToRead(settings).stream().map(Grant::toString))
        .containsExactlyInAnyOrder("iceberg.demo", "iceberg.\"a.b\"", "iceberg.ops.orders");
    assertThat(new IcebergFormat().grantsToRead(settings())).isEmpty();
    // AND a missing companion flag is refused naming it
    assertThatThrownBy(() -> settings("--iceberg-rest", "http://127.0.0.1:8181"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageStartingWith("--iceberg-rest needs --iceberg-allow");
  }
}
