package dev.lake.core.job;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.lake.core.ErrorCode;
import dev.lake.core.Json;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.Instant;
import java.util.Base64;
import java.util.Optional;

/** JSON form of a {@link Job} for stores that keep whole documents (the embedded file store). */
public final class JobCodec {
  private JobCodec() {}

  public static byte[] toBytes(Job job) {
    ObjectNode n = Json.mapper().createObjectNode();
    n.put("id", job.id());
    n.put("tenant", job.tenant());
    n.put("principal", job.principal());
    n.put("state", job.state().name());
    n.put("version", job.version());
    job.lease()
        .ifPresent(
            l -> {
              n.put("leaseOwner", l.owner());
              n.put("leaseExpiresAt", l.expiresAt().toEpochMilli());
            });
    n.put("attempt", job.attempt());
    job.queryId().ifPresent(q -> n.put("queryId", q));
    n.put("fingerprint", job.fingerprint());
    n.put("envelope", Base64.getEncoder().encodeToString(job.envelope()));
    n.put("progress", job.progress());
    n.put("rowsWritten", job.rowsWritten());
    job.manifestKey().ifPresent(m -> n.put("manifestKey", m));
    job.failure()
        .ifPresent(
            f -> {
              n.put("errorCode", f.code().name());
              n.put("errorMessage", f.message());
            });
    n.put("createdAt", job.createdAt().toEpochMilli());
    n.put("updatedAt", job.updatedAt().toEpochMilli());
    n.put("expiresAt", job.expiresAt().toEpochMilli());
    try {
      return Json.mapper().writeValueAsBytes(n);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot encode job", e);
    }
  }

  public static Job fromBytes(byte[] bytes) {
    JsonNode n;
    try {
      n = Json.mapper().readTree(bytes);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot decode job record", e);
    }
    Optional<Job.Lease> lease =
        n.hasNonNull("leaseOwner")
            ? Optional.of(
                new Job.Lease(
                    n.get("leaseOwner").asText(),
                    Instant.ofEpochMilli(n.get("leaseExpiresAt").asLong())))
            : Optional.empty();
    Optional<Job.Failure> failure =
        n.hasNonNull("errorCode")
            ? Optional.of(
                new Job.Failure(
                    ErrorCode.valueOf(n.get("errorCode").asText()),
                    n.path("errorMessage").asText()))
            : Optional.empty();
    return new Job(
        n.get("id").asText(),
        n.get("tenant").asText(),
        n.get("principal").asText(),
        JobState.valueOf(n.get("state").asText()),
        n.get("version").asLong(),
        lease,
        n.get("attempt").asInt(),
        optionalText(n, "queryId"),
        n.get("fingerprint").asText(),
        Base64.getDecoder().decode(n.get("envelope").asText()),
        n.get("progress").asDouble(),
        n.get("rowsWritten").asLong(),
        optionalText(n, "manifestKey"),
        failure,
        Instant.ofEpochMilli(n.get("createdAt").asLong()),
        Instant.ofEpochMilli(n.get("updatedAt").asLong()),
        Instant.ofEpochMilli(n.get("expiresAt").asLong()));
  }

  private static Optional<String> optionalText(JsonNode n, String field) {
    return n.hasNonNull(field) ? Optional.of(n.get(field).asText()) : Optional.empty();
  }
}
