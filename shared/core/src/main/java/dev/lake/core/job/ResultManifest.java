package dev.lake.core.job;

import static java.util.Objects.requireNonNull;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.lake.core.ErrorCode;
import dev.lake.core.Json;
import dev.lake.core.LakeException;
import java.io.IOException;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import org.apache.arrow.vector.types.pojo.Schema;

/**
 * The immutable {@code manifest.json} of one durable result, written once, after every part is
 * complete. Its presence is the only signal that a result is whole.
 *
 * @param schemaJson the result schema as Arrow's JSON form ({@link Schema#toJson()})
 * @param format {@value #FORMAT_ARROW_STREAM} or {@value #FORMAT_PARQUET}: every part of one result
 *     has the same format (see {@link ResultFormat})
 * @param state always {@value #STATE_COMPLETE}: failed attempts never write a manifest
 */
public record ResultManifest(
    String jobId,
    String tenant,
    String queryId,
    String format,
    String schemaJson,
    List<PartRef> parts,
    String state,
    Instant createdAt,
    Instant expiresAt) {
  public static final String FORMAT_ARROW_STREAM = "arrow-ipc-stream";
  public static final String FORMAT_PARQUET = "parquet";
  public static final String STATE_COMPLETE = "COMPLETE";
  public static final String FILE_NAME = "manifest.json";
  private static final int FORMAT_VERSION = 1;

  public ResultManifest {
    requireNonNull(jobId, "jobId is null");
    requireNonNull(tenant, "tenant is null");
    requireNonNull(queryId, "queryId is null");
    requireNonNull(format, "format is null");
    requireNonNull(schemaJson, "schemaJson is null");
    parts = List.copyOf(requireNonNull(parts, "parts is null"));
    requireNonNull(state, "state is null");
    createdAt = requireNonNull(createdAt, "createdAt is null").truncatedTo(ChronoUnit.MILLIS);
    expiresAt = requireNonNull(expiresAt, "expiresAt is null").truncatedTo(ChronoUnit.MILLIS);
    for (int i = 0; i < parts.size(); i++) {
      if (parts.get(i).index() != i) {
        throw new IllegalArgumentException("parts must be numbered 0..n-1 in order");
      }
    }
  }

  public Schema schema() {
    try {
      return Schema.fromJSON(schemaJson);
    } catch (IOException e) {
      throw new LakeException(ErrorCode.INTERNAL, "Result manifest has an unreadable schema", e);
    }
  }

  /** The format of every part; fails for a format this build does not know. */
  public ResultFormat resultFormat() {
    return ResultFormat.ofManifest(format);
  }

  public long rows() {
    return parts.stream().mapToLong(PartRef::rows).sum();
  }

  public long bytes() {
    return parts.stream().mapToLong(PartRef::bytes).sum();
  }

  public byte[] toJson() {
    ObjectNode n = Json.mapper().createObjectNode();
    n.put("formatVersion", FORMAT_VERSION);
    n.put("jobId", jobId);
    n.put("tenant", tenant);
    n.put("queryId", queryId);
    n.put("format", format);
    n.put("state", state);
    n.put("createdAt", createdAt.toString());
    n.put("expiresAt", expiresAt.toString());
    n.put("rows", rows());
    n.put("bytes", bytes());
    try {
      n.set("schema", Json.mapper().readTree(schemaJson));
      ArrayNode array = n.putArray("parts");
      for (PartRef p : parts) {
        array
            .addObject()
            .put("index", p.index())
            .put("key", p.key())
            .put("rows", p.rows())
            .put("bytes", p.bytes());
      }
      return Json.mapper().writeValueAsBytes(n);
    } catch (IOException e) {
      throw new LakeException(ErrorCode.INTERNAL, "Cannot encode result manifest", e);
    }
  }

  public static ResultManifest fromJson(byte[] bytes) {
    try {
      JsonNode n = Json.mapper().readTree(bytes);
      if (n.path("formatVersion").asInt() != FORMAT_VERSION) {
        throw new LakeException(ErrorCode.INTERNAL, "Result manifest version is not supported");
      }
      List<PartRef> parts = new ArrayList<>();
      for (JsonNode p : n.path("parts")) {
        parts.add(
            new PartRef(
                p.path("index").asInt(),
                p.path("key").asText(),
                p.path("rows").asLong(),
                p.path("bytes").asLong()));
      }
      return new ResultManifest(
          n.path("jobId").asText(),
          n.path("tenant").asText(),
          n.path("queryId").asText(),
          n.path("format").asText(),
          Json.mapper().writeValueAsString(n.path("schema")),
          parts,
          n.path("state").asText(),
          Instant.parse(n.path("createdAt").asText()),
          Instant.parse(n.path("expiresAt").asText()));
    } catch (IOException | RuntimeException e) {
      if (e instanceof LakeException le) {
        throw le;
      }
      throw new LakeException(ErrorCode.INTERNAL, "Result manifest is unreadable", e);
    }
  }
}
