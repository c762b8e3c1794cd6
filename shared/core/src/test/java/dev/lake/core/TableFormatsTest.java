package dev.lake.core;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.lake.core.testing.TestSnapshot;
import dev.lake.core.ticket.SnapshotCodec;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

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
}
