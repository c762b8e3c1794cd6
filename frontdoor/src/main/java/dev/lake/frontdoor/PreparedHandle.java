package dev.lake.frontdoor;

import static java.util.Objects.requireNonNull;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.lake.core.ErrorCode;
import dev.lake.core.LakeException;
import dev.lake.core.ticket.ParameterCodec;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/**
 * The payload of a sealed PREPARED ticket: the SQL text and the parameters bound so far. A prepared
 * statement is this handle and nothing else, so any replica that shares the key ring serves it and
 * no server state leaks or expires separately. Tables are resolved again at each execution.
 */
record PreparedHandle(String sql, List<Object> parameters) {
  PreparedHandle {
    requireNonNull(sql, "sql is null");
    // parameters may hold SQL NULLs, so List.copyOf does not apply
    parameters =
        Collections.unmodifiableList(
            new ArrayList<>(requireNonNull(parameters, "parameters is null")));
  }

  JsonNode toJson() {
    ObjectNode node = JsonNodeFactory.instance.objectNode();
    node.put("sql", sql);
    node.set("parameters", ParameterCodec.toJson(parameters));
    return node;
  }

  static PreparedHandle fromJson(JsonNode node) {
    JsonNode sql = node.get("sql");
    if (sql == null || !sql.isTextual()) {
      throw new LakeException(ErrorCode.TICKET_INVALID, "Prepared statement handle has no SQL");
    }
    return new PreparedHandle(sql.asText(), ParameterCodec.fromJson(node.get("parameters")));
  }
}
