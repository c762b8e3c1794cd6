package dev.lake.core;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.lake.core.local.FileRegistry;
import dev.lake.core.testing.TestFormatContext;
import dev.lake.core.testing.TestSnapshot;
import dev.lake.core.ticket.SnapshotCodec;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.apache.arrow.memory.RootAllocator;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class TableFormatsTest {
  private static final TableRef T = TableRef.parse("lake.sales.orders");

  @Test
  void installed_findsFormatsRegisteredThroughServiceFiles() {
    // THEN core's own test format, registered by one services line, is installed
    assertThat(TableFormats.installed().tags()).contains("test");
  }

  @Test
  void codec_roundTripsASnapshotSet_throughItsFormat() {
    // GIVEN a snapshot set of the test format
    SnapshotSet set = new SnapshotSet(Map.of(T, new TestSnapshot("/data/orders", 3)));
    // WHEN it is encoded and decoded
    ArrayNode json = SnapshotCodec.toJson(set);
    // THEN the tag is written and the same set comes back
    assertThat(json.get(0).get("type").asText()).isEqualTo("test");
    assertThat(SnapshotCodec.fromJson(json)).isEqualTo(set);
  }

  @Test
  void decode_failsClosed_whenTheTagIsUnknown() {
    // GIVEN an envelope naming a format this build does not have
    ArrayNode json =
        SnapshotCodec.toJson(new SnapshotSet(Map.of(T, new TestSnapshot("/data/orders", 3))));
    ((ObjectNode) json.get(0)).put("type", "delta");
    // THEN it is rejected as an invalid ticket
    assertThatThrownBy(() -> SnapshotCodec.fromJson(json))
        .isInstanceOfSatisfying(
            LakeException.class, e -> assertThat(e.code()).isEqualTo(ErrorCode.TICKET_INVALID))
        .hasMessage("Ticket names an unknown snapshot type");
  }

  @Test
  void decode_failsClosed_whenAFieldIsMissing() {
    ArrayNode json =
        SnapshotCodec.toJson(new SnapshotSet(Map.of(T, new TestSnapshot("/data/orders", 3))));
    ((ObjectNode) json.get(0)).remove("version");
    assertThatThrownBy(() -> SnapshotCodec.fromJson(json))
        .hasMessage("Ticket field 'version' is missing");
  }

  @Test
  void encode_refusesASnapshotWithoutAnInstalledFormat() {
    // GIVEN a registry without the test format
    TableFormats none = TableFormats.of(List.of());
    // THEN its snapshots cannot be sealed
    assertThatThrownBy(
            () ->
                none.encode(
                    new TestSnapshot("/x", 1),
                    com.fasterxml.jackson.databind.node.JsonNodeFactory.instance.objectNode()))
        .isInstanceOfSatisfying(
            LakeException.class, e -> assertThat(e.code()).isEqualTo(ErrorCode.INTERNAL))
        .hasMessage("No table format is installed for TestSnapshot");
  }

  @Test
  void of_rejectsTwoFormatsWithTheSameTag() {
    assertThatThrownBy(
            () -> TableFormats.of(List.of(new TestSnapshot.Format(), new TestSnapshot.Format())))
        .isInstanceOf(IllegalStateException.class)
        .hasMessage("two table formats use the tag 'test'");
  }

  /** A snapshot of a second fake format. */
  private record OtherSnapshot(long version) implements Snapshot {
    @Override
    public String describe() {
      return "other " + version;
    }
  }

  /**
   * A fake format (of {@code snapshotType}) whose catalog opens, recording when it is closed, or
   * cannot be reached; its codec is never used here.
   */
  private record Opening<S extends Snapshot>(
      String tag, Class<S> snapshotType, List<String> closed, boolean fails)
      implements TableFormat<S> {
    @Override
    public void encode(S snapshot, ObjectNode node) {
      throw new UnsupportedOperationException("never sealed");
    }

    @Override
    public S decode(com.fasterxml.jackson.databind.JsonNode node) {
      throw new UnsupportedOperationException("never unsealed");
    }

    @Override
    public Optional<CatalogPlugin> open(FormatContext context) {
      if (fails) {
        throw new LakeException(ErrorCode.EXTERNAL_UNAVAILABLE, "catalog down");
      }
      return Optional.of(
          new CatalogPlugin(
              new CatalogsTest.FakeResolver(Map.of()),
              new NoReader(),
              Optional.of(() -> closed.add(tag))));
    }
  }

  /** A reader of nothing (the catalogs opened here are never read). */
  private static final class NoReader implements TableReader {
    @Override
    public boolean supports(Snapshot snapshot) {
      return false;
    }

    @Override
    public org.apache.arrow.vector.types.pojo.Schema schema(TableRef ref, Snapshot snapshot) {
      throw new UnsupportedOperationException("never read");
    }

    @Override
    public List<org.apache.arrow.vector.ipc.ArrowReader> scan(
        TableRef ref,
        Snapshot snapshot,
        ScanRequest request,
        org.apache.arrow.memory.BufferAllocator allocator) {
      throw new UnsupportedOperationException("never read");
    }
  }

  @Test
  void open_buildsEveryFormatsCatalog_andClosesThemAgain_whenALaterOneFails(@TempDir Path dir)
      throws Exception {
    // GIVEN one format that opens a catalog and a later one whose catalog cannot be reached
    List<String> closed = new ArrayList<>();
    try (RootAllocator allocator = new RootAllocator()) {
      FormatContext context =
          TestFormatContext.local(
              new FileRegistry(dir.resolve("registry.json")), allocator, List.of());
      TableFormats good =
          TableFormats.of(
              List.of(
                  new TestSnapshot.Format(),
                  new Opening<>("a", OtherSnapshot.class, closed, false)));
      // WHEN opened THEN the codec-only test format adds nothing and the other's catalog is served
      assertThat(good.open(context)).hasSize(1);
      assertThat(closed).isEmpty();
      TableFormats both =
          TableFormats.of(
              List.of(
                  new Opening<>("a", OtherSnapshot.class, closed, false),
                  new Opening<>("b", TestSnapshot.class, closed, true)));
      // WHEN both are opened THEN the failure surfaces and the first catalog was closed again
      assertThatThrownBy(() -> both.open(context)).hasMessage("catalog down");
      assertThat(closed).containsExactly("a");
    }
  }

  @Test
  void formatContext_findsSettingsByType_andRejectsTwoOfOneType(@TempDir Path dir)
      throws Exception {
    try (RootAllocator allocator = new RootAllocator()) {
      FileRegistry registry = new FileRegistry(dir.resolve("registry.json"));
      FormatContext context = TestFormatContext.local(registry, allocator, List.of("settings"));
      assertThat(context.findSettings(String.class)).contains("settings");
      assertThat(context.findSettings(Integer.class)).isEmpty();
      assertThatThrownBy(() -> TestFormatContext.local(registry, allocator, List.of("a", "b")))
          .hasMessage("two settings of type String");
    }
  }
}
