package dev.lake.durable;

import static java.util.Objects.requireNonNull;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.lake.core.AdmittedQuery;
import dev.lake.core.ErrorCode;
import dev.lake.core.LakeException;
import dev.lake.core.Principal;
import dev.lake.core.SnapshotSet;
import dev.lake.core.job.Job;
import dev.lake.core.job.ResultFormat;
import dev.lake.core.ticket.ParameterCodec;
import dev.lake.core.ticket.SnapshotCodec;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import org.apache.arrow.vector.types.pojo.Schema;

/**
 * What a worker needs to run a job, sealed into {@link Job#envelope()}: the admitted statement, its
 * parameters, its exact snapshots, the principal as authorized at submission (grants are re-checked
 * by {@code Catalogs.verifyAll} in the worker), the planned schema and the format the result is
 * stored in; a fan-out child whose results are partial also carries its parent's combine step
 * ({@code SplitPlan#combineSql}, lake's own SQL), which the parent reads back from its first child
 * when every child is done. Never credentials, never source bytes.
 */
public record JobEnvelope(
    String sql,
    AdmittedQuery.Kind kind,
    List<Object> parameters,
    SnapshotSet snapshots,
    Principal principal,
    String schemaJson,
    ResultFormat resultFormat,
    Optional<String> combineSql) {
  public JobEnvelope {
    requireNonNull(sql, "sql is null");
    requireNonNull(kind, "kind is null");
    requireNonNull(snapshots, "snapshots is null");
    requireNonNull(principal, "principal is null");
    requireNonNull(schemaJson, "schemaJson is null");
    requireNonNull(resultFormat, "resultFormat is null");
    requireNonNull(combineSql, "combineSql is null");
    // parameters may hold SQL NULLs, so List.copyOf does not apply
    parameters =
        Collections.unmodifiableList(new ArrayList<>(requireNonNull(parameters, "parameters")));
  }

  /** An envelope without a combine step (every job but a partial fan-out child). */
  public JobEnvelope(
      String sql,
      AdmittedQuery.Kind kind,
      List<Object> parameters,
      SnapshotSet snapshots,
      Principal principal,
      String schemaJson,
      ResultFormat resultFormat) {
    this(sql, kind, parameters, snapshots, principal, schemaJson, resultFormat, Optional.empty());
  }

  /** The admitted query again: the tables are exactly the sealed snapshot set's. */
  public AdmittedQuery query() {
    return new AdmittedQuery(sql, kind, new TreeSet<>(snapshots.snapshots().keySet()));
  }

  public Schema schema() {
    try {
      return Schema.fromJSON(schemaJson);
    } catch (IOException e) {
      throw new LakeException(ErrorCode.INTERNAL, "Job envelope has an unreadable schema", e);
    }
  }

  JsonNode toJson() {
    ObjectNode n = JsonNodeFactory.instance.objectNode();
    n.put("sql", sql);
    n.put("kind", kind.name());
    n.set("parameters", ParameterCodec.toJson(parameters));
    n.set("snapshots", SnapshotCodec.toJson(snapshots));
    n.put("tenant", principal.tenant());
    n.put("principal", principal.id());
    ArrayNode grants = n.putArray("grants");
    principal.grants().stream().map(Object::toString).sorted().forEach(grants::add);
    n.put("schema", schemaJson);
    n.put("resultFormat", resultFormat.option());
    combineSql.ifPresent(c -> n.put("combine", c));
    return n;
  }

  static JobEnvelope fromJson(JsonNode n) {
    Set<String> grants = new TreeSet<>();
    n.path("grants").forEach(g -> grants.add(g.asText()));
    return new JobEnvelope(
        n.path("sql").asText(),
        AdmittedQuery.Kind.valueOf(n.path("kind").asText()),
        ParameterCodec.fromJson(n.get("parameters")),
        SnapshotCodec.fromJson(n.get("snapshots")),
        Principal.of(n.path("tenant").asText(), n.path("principal").asText(), grants),
        n.path("schema").asText(),
        // envelopes sealed before Parquet results existed carry no format: they are Arrow
        ResultFormat.parse(Optional.ofNullable(n.path("resultFormat").textValue())),
        Optional.ofNullable(n.path("combine").textValue()));
  }
}
