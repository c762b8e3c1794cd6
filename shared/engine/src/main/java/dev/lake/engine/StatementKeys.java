package dev.lake.engine;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.lake.core.ErrorCode;
import dev.lake.core.LakeException;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.Iterator;
import java.util.Map;

/**
 * A statement's identity for the engine's plan cache: a digest of its parse tree without the tree's
 * source positions ({@code query_location}), so texts that differ only in comments, spacing or
 * keyword case (a BI tool's generated comment) share one key, while any difference the parser keeps
 * (a literal, an identifier, an alias) makes a new one. The engine renders what it runs from the
 * tree, so texts with one key run the same SQL.
 */
final class StatementKeys {
  private StatementKeys() {}

  static String of(StatementRewriter statement) {
    JsonNode tree = statement.statement().deepCopy();
    stripLocations(tree);
    try {
      MessageDigest sha = MessageDigest.getInstance("SHA-256");
      sha.update((byte) (statement.explain() ? 'E' : 'S'));
      sha.update(SqlParser.mapper().writeValueAsString(tree).getBytes(StandardCharsets.UTF_8));
      return HexFormat.of().formatHex(sha.digest());
    } catch (NoSuchAlgorithmException | com.fasterxml.jackson.core.JsonProcessingException e) {
      throw new LakeException(ErrorCode.INTERNAL, "Cannot key the statement", e);
    }
  }

  private static void stripLocations(JsonNode node) {
    if (node instanceof ObjectNode o) {
      o.remove("query_location");
      for (Iterator<Map.Entry<String, JsonNode>> it = o.fields(); it.hasNext(); ) {
        stripLocations(it.next().getValue());
      }
    } else if (node.isArray()) {
      node.forEach(StatementKeys::stripLocations);
    }
  }
}
