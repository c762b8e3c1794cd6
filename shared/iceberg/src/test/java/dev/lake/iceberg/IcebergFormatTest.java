package dev.lake.iceberg;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import dev.lake.core.FormatContext;
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
import org.apache.arrow.memory.RootAllocator;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

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
}
