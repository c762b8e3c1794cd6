package dev.lake.sandbox;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.lake.core.AdmittedQuery;
import dev.lake.core.CacheStats;
import dev.lake.core.ErrorCode;
import dev.lake.core.LakeException;
import dev.lake.core.QueryStats;
import dev.lake.core.SnapshotSet;
import dev.lake.core.SplitPlan;
import dev.lake.core.TableRef;
import dev.lake.core.ticket.ParameterCodec;
import dev.lake.core.ticket.SnapshotCodec;
import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.apache.arrow.vector.types.pojo.Schema;

/**
 * The engine protocol's messages as JSON trees, both sides. A request names an operation ({@link
 * Op}), the statement (text, kind, tables), its sealed snapshots ({@link SnapshotCodec}), bound
 * parameters ({@link ParameterCodec}) and deadline. A reply is {@code {"ok":true,…}} or {@code
 * {"error":{"code":…,"message":…}}} with lake's {@link ErrorCode}, so errors map through the one
 * taxonomy; an unknown code fails closed as {@code INTERNAL}.
 */
final class Wire {
  private static final JsonNodeFactory NODES = JsonNodeFactory.instance;

  /** What a connection asks the engine process for. */
  enum Op {
    /** The result schema ({@code QueryEngine.plan}). */
    PLAN,
    /** The placeholders' types ({@code QueryEngine.parameterTypes}). */
    PARAMETER_TYPES,
    /** Run the statement: header reply, then an Arrow IPC stream, then a trailer reply. */
    EXECUTE,
    /** The statement's splits ({@code QueryEngine.splits}). */
    SPLITS,
    /** The engine's cache figures. */
    STATS
  }

  /** A decoded request. */
  record Request(
      Op op,
      String tenant,
      Optional<AdmittedQuery> query,
      SnapshotSet snapshots,
      List<Object> parameters,
      Optional<Duration> timeout,
      long targetRows,
      int maxSplits) {}

  private Wire() {}

  static ObjectNode request(
      Op op,
      String tenant,
      AdmittedQuery query,
      SnapshotSet snapshots,
      List<Object> parameters,
      Optional<Duration> timeout) {
    ObjectNode node = NODES.objectNode();
    node.put("op", op.name());
    node.put("tenant", tenant);
    node.put("sql", query.sql());
    node.put("kind", query.kind().name());
    var tables = node.putArray("tables");
    query.tables().forEach(t -> tables.add(t.toString()));
    node.set("snapshots", SnapshotCodec.toJson(snapshots));
    node.set("parameters", ParameterCodec.toJson(parameters));
    timeout.ifPresent(t -> node.put("timeoutMs", t.toMillis()));
    return node;
  }

  static ObjectNode splitsRequest(
      String tenant, AdmittedQuery query, SnapshotSet snapshots, long targetRows, int maxSplits) {
    ObjectNode node = request(Op.SPLITS, tenant, query, snapshots, List.of(), Optional.empty());
    node.put("targetRows", targetRows);
    node.put("maxSplits", maxSplits);
    return node;
  }

  static ObjectNode splits(SplitPlan plan) {
    ObjectNode node = ok();
    var array = node.putArray("splits");
    plan.splits().forEach(s -> array.add(SnapshotCodec.toJson(s)));
    node.put("childSql", plan.childSql());
    plan.combineSql().ifPresent(c -> node.put("combineSql", c));
    return node;
  }

  static SplitPlan splits(JsonNode reply) {
    check(reply);
    List<SnapshotSet> out = new ArrayList<>();
    reply.path("splits").forEach(s -> out.add(SnapshotCodec.fromJson(s)));
    return new SplitPlan(
        out,
        reply.path("childSql").asText(),
        Optional.ofNullable(reply.path("combineSql").textValue()));
  }

  static ObjectNode statsRequest() {
    ObjectNode node = NODES.objectNode();
    node.put("op", Op.STATS.name());
    return node;
  }

  static Request request(JsonNode node) {
    Op op = Op.valueOf(node.path("op").asText());
    if (op == Op.STATS) {
      return new Request(
          op, "", Optional.empty(), SnapshotSet.empty(), List.of(), Optional.empty(), 0, 0);
    }
    List<TableRef> tables = new ArrayList<>();
    node.path("tables").forEach(t -> tables.add(TableRef.parse(t.asText())));
    AdmittedQuery query =
        AdmittedQuery.of(
            node.path("sql").asText(),
            AdmittedQuery.Kind.valueOf(node.path("kind").asText()),
            tables);
    Optional<Duration> timeout =
        node.has("timeoutMs")
            ? Optional.of(Duration.ofMillis(node.get("timeoutMs").asLong()))
            : Optional.empty();
    return new Request(
        op,
        node.path("tenant").asText(),
        Optional.of(query),
        SnapshotCodec.fromJson(node.get("snapshots")),
        ParameterCodec.fromJson(node.get("parameters")),
        timeout,
        node.path("targetRows").asLong(),
        node.path("maxSplits").asInt());
  }

  static ObjectNode ok() {
    return NODES.objectNode().put("ok", true);
  }

  static ObjectNode schema(Schema schema) {
    return ok().put("schema", schema.toJson());
  }

  static Schema schema(JsonNode reply) throws IOException {
    check(reply);
    return Schema.fromJSON(reply.path("schema").asText());
  }

  static ObjectNode error(LakeException e) {
    ObjectNode node = NODES.objectNode();
    node.putObject("error").put("code", e.code().name()).put("message", e.getMessage());
    return node;
  }

  /** Throws the reply's error as the {@link LakeException} it was; returns when it is ok. */
  static void check(JsonNode reply) {
    JsonNode error = reply.get("error");
    if (error == null) {
      if (!reply.path("ok").asBoolean(false)) {
        throw new LakeException(ErrorCode.INTERNAL, "The engine process sent a malformed reply");
      }
      return;
    }
    ErrorCode code;
    try {
      code = ErrorCode.valueOf(error.path("code").asText());
    } catch (IllegalArgumentException e) {
      code = ErrorCode.INTERNAL;
    }
    throw new LakeException(code, error.path("message").asText("engine error"));
  }

  static ObjectNode trailer(QueryStats stats) {
    ObjectNode node = ok();
    node.putObject("stats")
        .put("scannedBytes", stats.scannedBytes())
        .put("resultBytes", stats.resultBytes())
        .put("arrowPeakBytes", stats.arrowPeakBytes())
        .put("engineMemoryBytes", stats.engineMemoryBytes())
        .put("spillBytes", stats.spillBytes());
    return node;
  }

  static QueryStats stats(JsonNode trailer) {
    check(trailer);
    JsonNode s = trailer.path("stats");
    return new QueryStats(
        s.path("scannedBytes").asLong(),
        s.path("resultBytes").asLong(),
        s.path("arrowPeakBytes").asLong(),
        s.path("engineMemoryBytes").asLong(),
        s.path("spillBytes").asLong());
  }

  static ObjectNode cache(CacheStats c) {
    ObjectNode node = ok();
    node.putObject("cache")
        .put("snapshotCopies", c.snapshotCopies())
        .put("snapshotHits", c.snapshotHits())
        .put("snapshotBytes", c.snapshotBytes())
        .put("snapshotCopiesPending", c.snapshotCopiesPending())
        .put("resultHits", c.resultHits())
        .put("resultBytes", c.resultBytes());
    return node;
  }

  static CacheStats cache(JsonNode reply) {
    check(reply);
    JsonNode c = reply.path("cache");
    return new CacheStats(
        c.path("snapshotCopies").asLong(),
        c.path("snapshotHits").asLong(),
        c.path("snapshotBytes").asLong(),
        c.path("snapshotCopiesPending").asLong(),
        c.path("resultHits").asLong(),
        c.path("resultBytes").asLong());
  }
}
