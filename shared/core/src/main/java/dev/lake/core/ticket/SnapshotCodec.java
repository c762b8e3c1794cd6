package dev.lake.core.ticket;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.lake.core.ErrorCode;
import dev.lake.core.IcebergSnapshot;
import dev.lake.core.LakeException;
import dev.lake.core.LanceSnapshot;
import dev.lake.core.Snapshot;
import dev.lake.core.SnapshotSet;
import dev.lake.core.TableRef;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Explicit JSON form of snapshot sets inside sealed envelopes (no polymorphic or Java
 * deserialization of anything a client can send). Unknown snapshot types fail closed.
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
          new TableRef(text(node, "catalog"), text(node, "namespace"), text(node, "table"));
      map.put(ref, snapshotFromJson(node));
    }
    return new SnapshotSet(map);
  }

  private static ObjectNode toJson(TableRef ref, Snapshot snapshot) {
    ObjectNode node = JsonNodeFactory.instance.objectNode();
    node.put("catalog", ref.catalog());
    node.put("namespace", ref.namespace());
    node.put("table", ref.table());
    if (snapshot instanceof LanceSnapshot lance) {
      node.put("type", "lance");
      node.put("location", lance.location());
      node.put("incarnation", lance.incarnation());
      node.put("version", lance.version());
    } else if (snapshot instanceof IcebergSnapshot ice) {
      node.put("type", "iceberg");
      node.put("catalogName", ice.catalogName());
      node.put("tableUuid", ice.tableUuid());
      node.put("snapshotId", ice.snapshotId());
      node.put("metadataLocation", ice.metadataLocation());
    }
    return node;
  }

  private static Snapshot snapshotFromJson(JsonNode node) {
    String type = text(node, "type");
    return switch (type) {
      case "lance" ->
          new LanceSnapshot(
              text(node, "location"), text(node, "incarnation"), number(node, "version"));
      case "iceberg" ->
          new IcebergSnapshot(
              text(node, "catalogName"),
              text(node, "tableUuid"),
              number(node, "snapshotId"),
              text(node, "metadataLocation"));
      default ->
          throw new LakeException(
              ErrorCode.TICKET_INVALID, "Ticket names an unknown snapshot type");
    };
  }

  static String text(JsonNode node, String field) {
    JsonNode value = node.get(field);
    if (value == null || !value.isTextual()) {
      throw new LakeException(ErrorCode.TICKET_INVALID, "Ticket field '" + field + "' is missing");
    }
    return value.asText();
  }

  static long number(JsonNode node, String field) {
    JsonNode value = node.get(field);
    if (value == null || !value.canConvertToLong()) {
      throw new LakeException(ErrorCode.TICKET_INVALID, "Ticket field '" + field + "' is missing");
    }
    return value.asLong();
  }
}
