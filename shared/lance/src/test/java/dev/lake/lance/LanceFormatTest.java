package dev.lake.lance;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import dev.lake.core.CatalogPlugin;
import dev.lake.core.DataLocations;
import dev.lake.core.ErrorCode;
import dev.lake.core.FormatContext;
import dev.lake.core.Json;
import dev.lake.core.LakeException;
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

class LanceFormatTest {
  @Test
  void lance_isInstalled_andKeepsItsEnvelopeEncoding() throws Exception {
    // GIVEN a sealed-set entry exactly as earlier releases wrote it for a Lance table
    JsonNode wire =
        Json.mapper()
            .readTree(
                "[{\"catalog\":\"lake\",\"namespace\":\"tpch\",\"table\":\"nation\","
                    + "\"type\":\"lance\",\"location\":\"/data/nation.lance\","
                    + "\"incarnation\":\"inc-1\",\"version\":3}]");
    SnapshotSet set =
        new SnapshotSet(
            Map.of(
                TableRef.parse("lake.tpch.nation"),
                new LanceSnapshot("/data/nation.lance", "inc-1", 3)));
    // THEN the Lance module's format is registered and reads and writes that same form
    assertThat(TableFormats.installed().tags()).contains(LanceFormat.TAG);
    assertThat(SnapshotCodec.fromJson(wire)).isEqualTo(set);
    assertThat(Json.mapper().readTree(SnapshotCodec.toJson(set).toString())).isEqualTo(wire);
  }

  @Test
  void open_servesTheLakeCatalog_overTheProcesssRegistry(@TempDir Path dir) throws Exception {
    // GIVEN a registry with one table and a process context over it
    FileRegistry registry = new FileRegistry(dir.resolve("registry.json"));
    TableRef nation = TableRef.parse("lake.tpch.nation");
    LanceFormat.register(registry, nation, dir.resolve("nation.lance").toString());
    try (RootAllocator allocator = new RootAllocator()) {
      FormatContext context =
          TestFormatContext.local(registry, allocator, List.of(DataLocations.of(dir)));
      // WHEN the installed formats open their catalogs, Lance alone
      List<CatalogPlugin> plugins = TableFormats.of(List.of(new LanceFormat())).open(context);
      assertThat(plugins).hasSize(1);
      CatalogPlugin plugin = plugins.get(0);
      // THEN it is the lake catalog over that registry, reading Lance snapshots, owning its reader
      assertThat(plugin.resolver().catalog()).isEqualTo(TableRef.LAKE);
      assertThat(plugin.resolver().listTables()).containsExactly(nation);
      assertThat(plugin.readers().get(0).supports(new LanceSnapshot("/x", "i", 1))).isTrue();
      assertThat(plugin.owner()).isPresent();
      plugin.owner().get().close();
    }
  }

  @Test
  void lakeCatalog_failsClosed_onATableOfAnotherFormat(@TempDir Path dir) throws Exception {
    // GIVEN a registry holding a table of another installed format (core's test format)
    FileRegistry registry = new FileRegistry(dir.resolve("registry.json"));
    TableRef other = TableRef.parse("lake.tpch.other");
    registry.register(other, "test", dir.resolve("other").toString(), Map.of("k", "v"));
    try (RootAllocator allocator = new RootAllocator()) {
      CatalogPlugin plugin =
          TableFormats.of(List.of(new LanceFormat()))
              .open(TestFormatContext.local(registry, allocator, List.of(DataLocations.of(dir))))
              .get(0);
      // THEN the Lance catalog neither lists nor reads it: resolving is UNSUPPORTED
      assertThat(plugin.resolver().listTables()).isEmpty();
      assertThatThrownBy(() -> plugin.resolver().resolve(other))
          .isInstanceOfSatisfying(
              LakeException.class, e -> assertThat(e.code()).isEqualTo(ErrorCode.UNSUPPORTED))
          .hasMessage(
              "Table lake.tpch.other is registered as format 'test', which this server does not"
                  + " read");
      // AND a Lance snapshot sealed under that name no longer verifies
      assertThatThrownBy(
              () ->
                  plugin
                      .resolver()
                      .verify(
                          other,
                          new LanceSnapshot(
                              dir.resolve("other").toString(),
                              registry.find(other).orElseThrow().incarnation(),
                              1)))
          .isInstanceOfSatisfying(
              LakeException.class, e -> assertThat(e.code()).isEqualTo(ErrorCode.SNAPSHOT_GONE));
      plugin.owner().orElseThrow().close();
    }
  }

  @Test
  void checkEntry_wantsALocation_andNoOptions() {
    LanceFormat lance = new LanceFormat();
    assertThatThrownBy(() -> lance.checkEntry(" ", Map.of()))
        .hasMessage("A Lance table needs a dataset location");
    assertThatThrownBy(() -> lance.checkEntry("/d/t.lance", Map.of("b", "1", "a", "2")))
        .isInstanceOfSatisfying(
            LakeException.class, e -> assertThat(e.code()).isEqualTo(ErrorCode.INVALID_ARGUMENT))
        .hasMessage("Lance tables take no options: [a, b]");
  }
}
