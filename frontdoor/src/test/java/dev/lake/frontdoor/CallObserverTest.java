package dev.lake.frontdoor;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.lake.core.Json;
import dev.lake.core.QueryStats;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** What one finished call leaves in the meters and the audit line. */
class CallObserverTest {
  private final List<String> lines = new ArrayList<>();
  private final SimpleMeterRegistry meters = new SimpleMeterRegistry();
  private final CallObserver observer = new CallObserver(new AuditLog(lines::add), meters);

  private static AuditRecord doGet(String tenant, long rows, long bytes, Optional<QueryStats> s) {
    return new AuditRecord(
        Instant.parse("2026-12-01T23:00:00Z"),
        tenant,
        "alice",
        "DO_GET",
        "call-1",
        new AuditRecord.Query(
            Optional.of("q1"),
            Optional.empty(),
            Map.of("lake.tpch.nation", "lance 3", "lake.tpch.region", "lance 1"),
            Optional.empty(),
            Optional.of(Duration.ofMillis(2)),
            Optional.of(Duration.ofMillis(5)),
            s),
        rows,
        bytes,
        7,
        "OK",
        "ok");
  }

  private static final QueryStats STATS = new QueryStats(100, 200, 250, 50, 0);

  @Test
  void repeatedCalls_countOnTheSameMeters_perRpcOutcomeAndTenant() {
    // GIVEN two DoGets of tenant t1 and one of t2
    observer.completed(doGet("t1", 25, 1000, Optional.of(STATS)));
    observer.completed(doGet("t1", 25, 1000, Optional.of(STATS)));
    observer.completed(doGet("t2", 3, 24, Optional.empty()));
    // THEN each tenant's series counts its own calls, rows, bytes and accounting
    assertThat(meters.get("lake.rpc").tag("tenant", "t1").tag("rpc", "DO_GET").timer().count())
        .isEqualTo(2);
    assertThat(meters.get("lake.rpc").tag("tenant", "t2").timer().count()).isEqualTo(1);
    assertThat(meters.get("lake.egress.rows").tag("tenant", "t1").counter().count()).isEqualTo(50);
    assertThat(meters.get("lake.egress.bytes").tag("tenant", "t2").summary().totalAmount())
        .isEqualTo(24);
    assertThat(meters.get("lake.query.scanned.bytes").tag("tenant", "t1").summary().count())
        .isEqualTo(2);
    assertThat(meters.get("lake.query.scanned.bytes").tag("tenant", "t2").summary().count())
        .isZero();
    // AND the tenant-free latency histograms hold every call
    assertThat(meters.get("lake.query.download").timer().count()).isEqualTo(3);
    assertThat(meters.get("lake.query.planning").timer().count()).isZero();
    assertThat(lines).hasSize(3);
  }

  @Test
  void tenantTags_areBounded_laterTenantsShareOther() {
    // GIVEN as many tenants as tags are kept WHEN one more calls
    for (int i = 0; i < CallObserver.MAX_TENANT_TAGS; i++) {
      observer.completed(doGet("t" + i, 1, 8, Optional.empty()));
    }
    observer.completed(doGet("late", 1, 8, Optional.empty()));
    // THEN its meters are tagged _other, while its audit line still names it
    assertThat(meters.get("lake.rpc").tag("tenant", CallObserver.OTHER_TENANT).timer().count())
        .isEqualTo(1);
    assertThat(meters.find("lake.rpc").tag("tenant", "late").timer()).isNull();
    assertThat(lines.get(lines.size() - 1)).contains("\"tenant\":\"late\"");
  }

  @Test
  void auditLine_isOneJsonObject_withTheDocumentedFieldsInOrder() throws Exception {
    // WHEN a DoGet with accounting completes
    observer.completed(doGet("t1", 25, 1000, Optional.of(STATS)));
    // THEN its line has exactly these fields, in this order, and absent parts are left out
    String line = lines.get(0);
    assertThat(line).doesNotContain("\n");
    JsonNode audit = Json.mapper().readTree(line);
    List<String> fields = new ArrayList<>();
    audit.fieldNames().forEachRemaining(fields::add);
    assertThat(fields)
        .containsExactly(
            "kind",
            "time",
            "tenant",
            "principal",
            "rpc",
            "call",
            "query",
            "snapshots",
            "rows",
            "bytes",
            "durationMs",
            "firstBatchMs",
            "downloadMs",
            "accounting",
            "status",
            "outcome");
    assertThat(audit.get("time").asText()).isEqualTo("2026-12-01T23:00:00Z");
    assertThat(audit.get("snapshots").get("lake.tpch.nation").asText()).isEqualTo("lance 3");
    assertThat(audit.get("accounting").get("memoryPeakBytes").asLong()).isEqualTo(300);
    assertThat(audit.get("accounting").get("spillBytes").asLong()).isZero();
    assertThat(audit.get("downloadMs").asLong()).isEqualTo(5);
  }
}
