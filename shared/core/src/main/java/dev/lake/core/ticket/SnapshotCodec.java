package dev.lake.core.ticket;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.lake.core.ErrorCode;
import dev.lake.core.LakeException;
import dev.lake.core.Snapshot;
import dev.lake.core.SnapshotSet;
import dev.lake.core.TableFormats;
import dev.lake.core.TableRef;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Explicit JSON form of snapshot sets inside sealed envelopes (no polymorphic or Java
 * deserialization of anything a client can send): per table its name, the format's tag under {@code
 * "type"} and the fields that format writes ({@link TableFormats#installed()}). Unknown tags fail
 * closed.
 */
public final class SnapshotCodec {
  private SnapshotCodec() {}

  public static ArrayNode toJson(SnapshotSet set) {
    ArrayNode array = JsonNodeFactory.instance.arrayNode();
    set.snapshots().forEach((ref, snapshot) -> array.add(toJson(ref, snapshot)));
    return array;
  }

  public static SnapshotSet fromJson(JsonNode array) {
    if (array == null || !array.isArray()) {
      throw new LakeException(ErrorCode.TICKET_INVALID, "Ticket has no snapshot set");
    }
    Map<TableRef, Snapshot> map = new LinkedHashMap<>();
    for (JsonNode node : array) {
      TableRef ref =
          new TableRef(
              TableFormats.text(node, "catalog"),
              TableFormats.text(node, "namespace"),
              TableFormats.text(node, "table"));
      map.put(ref, TableFormats.installed().decode(node));
    }
    return new SnapshotSet(map);
  }

  private static ObjectNode toJson(TableRef ref, Snapshot snapshot) {
    ObjectNode node = JsonNodeFactory.instance.objectNode();
    node.put("catalog", ref.catalog());
    node.put("namespace", ref.namespace());
    node.put("table", ref.table());
    TableFormats.installed().encode(snapshot, node);
    return node;
  }
}
