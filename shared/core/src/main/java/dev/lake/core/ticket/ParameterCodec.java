package dev.lake.core.ticket;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.lake.core.ErrorCode;
import dev.lake.core.LakeException;
import java.math.BigDecimal;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/**
 * Typed JSON for bound statement parameters. Only the value types listed here exist; anything else
 * fails with a clear error instead of being coerced.
 */
public final class ParameterCodec {
  private ParameterCodec() {}

  public static ArrayNode toJson(List<Object> parameters) {
    ArrayNode array = JsonNodeFactory.instance.arrayNode();
    for (Object p : parameters) {
      ObjectNode n = array.addObject();
      if (p == null) {
        n.put("t", "null");
      } else if (p instanceof Boolean b) {
        n.put("t", "bool").put("v", b);
      } else if (p instanceof Long
          || p instanceof Integer
          || p instanceof Short
          || p instanceof Byte) {
        n.put("t", "long").put("v", ((Number) p).longValue());
      } else if (p instanceof Double || p instanceof Float) {
        n.put("t", "double").put("v", ((Number) p).doubleValue());
      } else if (p instanceof BigDecimal d) {
        n.put("t", "decimal").put("v", d.toPlainString());
      } else if (p instanceof String s) {
        n.put("t", "string").put("v", s);
      } else if (p instanceof LocalDate d) {
        n.put("t", "date").put("v", d.toString());
      } else if (p instanceof LocalDateTime d) {
        n.put("t", "timestamp").put("v", d.toString());
      } else {
        throw new LakeException(
            ErrorCode.UNSUPPORTED,
            "Parameters of type " + p.getClass().getSimpleName() + " are not supported");
      }
    }
    return array;
  }

  public static List<Object> fromJson(JsonNode array) {
    if (array == null || array.isNull()) {
      return List.of();
    }
    if (!array.isArray()) {
      throw new LakeException(ErrorCode.TICKET_INVALID, "Ticket parameters are malformed");
    }
    List<Object> out = new ArrayList<>();
    for (JsonNode n : array) {
      String t = n.path("t").asText();
      JsonNode v = n.path("v");
      out.add(
          switch (t) {
            case "null" -> null;
            case "bool" -> v.asBoolean();
            case "long" -> v.asLong();
            case "double" -> v.asDouble();
            case "decimal" -> new BigDecimal(v.asText());
            case "string" -> v.asText();
            case "date" -> LocalDate.parse(v.asText());
            case "timestamp" -> LocalDateTime.parse(v.asText());
            default ->
                throw new LakeException(
                    ErrorCode.TICKET_INVALID, "Ticket parameter type is unknown");
          });
    }
    return Collections.unmodifiableList(out);
  }
}
