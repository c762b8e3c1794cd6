package dev.lake.core.ticket;

import static java.util.Objects.requireNonNull;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.lake.core.SnapshotSet;
import dev.lake.core.TableFormats;
import java.util.Collections;
import java.util.List;

/**
 * The payload of a {@link TicketKind#STATEMENT} ticket: admitted SQL, its bound parameters and its
 * exact snapshots.
 */
public record StatementTicket(String sql, List<Object> parameters, SnapshotSet snapshots) {
  public StatementTicket {
    requireNonNull(sql, "sql is null");
    requireNonNull(snapshots, "snapshots is null");
    // parameters may hold SQL NULLs, so List.copyOf does not apply
    parameters =
        Collections.unmodifiableList(
            new java.util.ArrayList<>(requireNonNull(parameters, "parameters is null")));
  }

  public JsonNode toJson() {
    ObjectNode node = JsonNodeFactory.instance.objectNode();
    node.put("sql", sql);
    node.set("parameters", ParameterCodec.toJson(parameters));
    node.set("snapshots", SnapshotCodec.toJson(snapshots));
    return node;
  }

  public static StatementTicket fromJson(JsonNode node) {
    return new StatementTicket(
        TableFormats.text(node, "sql"),
        ParameterCodec.fromJson(node.get("parameters")),
        SnapshotCodec.fromJson(node.get("snapshots")));
  }
}
