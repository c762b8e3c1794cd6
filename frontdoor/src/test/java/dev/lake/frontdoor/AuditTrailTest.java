package dev.lake.frontdoor;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import dev.lake.core.Json;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.time.Clock;
import java.util.HexFormat;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import org.apache.arrow.flight.CallStatus;
import org.apache.arrow.flight.FlightClient;
import org.apache.arrow.flight.FlightRuntimeException;
import org.apache.arrow.flight.FlightServer;
import org.apache.arrow.flight.FlightStatusCode;
import org.apache.arrow.flight.FlightStream;
import org.apache.arrow.flight.Location;
import org.apache.arrow.flight.NoOpFlightProducer;
import org.apache.arrow.flight.Ticket;
import org.apache.arrow.flight.grpc.CredentialCallOption;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The audit trail and meters around a real Flight server: the production middlewares and producer
 * wrapper, in front of a producer of our own that streams a fixed batch (or fails on request).
 */
class AuditTrailTest {
  private static final String TOKEN = "audit-test-token-0123456789";

  private final BlockingQueue<String> lines = new LinkedBlockingQueue<>();
  private final PrometheusMeterRegistry meters =
      new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
  private BufferAllocator allocator;
  private FlightServer server;
  private FlightClient client;

  @BeforeEach
  void start() throws Exception {
    allocator = new RootAllocator();
    Principals principals =
        new Principals(
            List.of(new PrincipalEntry(sha256(TOKEN), "t1", "alice", List.of("lake.tpch"))));
    CallObserver observer = new CallObserver(new AuditLog(lines::add), meters);
    AuditMiddleware.Factory audit = new AuditMiddleware.Factory(observer, Clock.systemUTC());
    server =
        FlightServer.builder(
                allocator,
                Location.forGrpcInsecure("127.0.0.1", 0),
                new AuditingProducer(new Rows()))
            .middleware(AuditMiddleware.KEY, audit)
            .middleware(
                AuthMiddleware.KEY,
                audit.auditingRejections(new AuthMiddleware.Factory(principals)))
            .build()
            .start();
    client =
        FlightClient.builder(allocator, Location.forGrpcInsecure("127.0.0.1", server.getPort()))
            .build();
  }

  @AfterEach
  void stop() throws Exception {
    client.close();
    server.close();
    // the audit line is written when the call completes, which can be a moment before gRPC has
    // released the call's last Arrow buffers: wait for them (bounded), then a real leak still fails
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
    while (allocator.getAllocatedMemory() != 0 && System.nanoTime() < deadline) {
      LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(1));
    }
    allocator.close();
  }

  @Test
  void doGet_writesOneAuditLineWithPrincipalRowsAndBytes_neverTheToken() throws Exception {
    // GIVEN an authenticated client WHEN it reads a three-row stream
    assertThat(read("rows")).isEqualTo(3);
    // THEN one audit line names the principal, the RPC and what was streamed
    String line = nextLine();
    JsonNode audit = Json.mapper().readTree(line);
    assertThat(audit.get("kind").asText()).isEqualTo("audit");
    assertThat(audit.get("tenant").asText()).isEqualTo("t1");
    assertThat(audit.get("principal").asText()).isEqualTo("alice");
    assertThat(audit.get("rpc").asText()).isEqualTo("DO_GET");
    assertThat(audit.get("rows").asLong()).isEqualTo(3);
    assertThat(audit.get("bytes").asLong()).isGreaterThanOrEqualTo(3 * 8);
    assertThat(audit.get("status").asText()).isEqualTo("OK");
    assertThat(audit.get("outcome").asText()).isEqualTo("ok");
    assertThat(audit.get("durationMs").asLong()).isNotNegative();
    assertThat(audit.get("call").asText()).isNotBlank();
    assertThat(line).doesNotContain(TOKEN).doesNotContain(sha256(TOKEN)).doesNotContain("rows\"}");
    assertThat(lines).isEmpty();
  }

  @Test
  void serverFault_isAuditedAsServerError_andTheNextCallSucceeds() throws Exception {
    assertThatThrownBy(() -> read("boom"))
        .isInstanceOfSatisfying(
            FlightRuntimeException.class,
            e -> assertThat(e.status().code()).isEqualTo(FlightStatusCode.INTERNAL));
    JsonNode audit = Json.mapper().readTree(nextLine());
    assertThat(audit.get("outcome").asText()).isEqualTo("server_error");
    assertThat(audit.get("status").asText()).isEqualTo("INTERNAL");
    assertThat(read("rows")).isEqualTo(3);
    assertThat(Json.mapper().readTree(nextLine()).get("outcome").asText()).isEqualTo("ok");
  }

  @Test
  void unauthenticatedCall_isAuditedWithoutPrincipalAsClientError() throws Exception {
    try (FlightStream s = client.getStream(new Ticket("rows".getBytes(StandardCharsets.UTF_8)))) {
      assertThatThrownBy(s::next)
          .isInstanceOfSatisfying(
              FlightRuntimeException.class,
              e -> assertThat(e.status().code()).isEqualTo(FlightStatusCode.UNAUTHENTICATED));
    }
    JsonNode audit = Json.mapper().readTree(nextLine());
    assertThat(audit.get("tenant").asText()).isEqualTo("-");
    assertThat(audit.get("outcome").asText()).isEqualTo("client_error");
  }

  @Test
  void meters_countCallsAndEgressPerTenant() throws Exception {
    read("rows");
    nextLine();
    String scrape = meters.scrape();
    assertThat(scrape)
        .contains("lake_rpc_seconds_count{outcome=\"ok\",rpc=\"DO_GET\",tenant=\"t1\"} 1")
        .contains("lake_egress_rows_total{tenant=\"t1\"} 3.0")
        .contains("lake_egress_bytes_count{tenant=\"t1\"} 1");
  }

  private long read(String ticket) throws Exception {
    long rows = 0;
    try (FlightStream s =
        client.getStream(
            new Ticket(ticket.getBytes(StandardCharsets.UTF_8)),
            new CredentialCallOption(
                new org.apache.arrow.flight.auth2.BearerCredentialWriter(TOKEN)))) {
      while (s.next()) {
        rows += s.getRoot().getRowCount();
      }
    }
    return rows;
  }

  /** The audit line of the call just finished; it is written when the server completes the call. */
  private String nextLine() throws InterruptedException {
    String line = lines.poll(10, TimeUnit.SECONDS);
    assertThat(line).as("an audit line within 10 s").isNotNull();
    return line;
  }

  private static String sha256(String s) throws Exception {
    return HexFormat.of()
        .formatHex(MessageDigest.getInstance("SHA-256").digest(s.getBytes(StandardCharsets.UTF_8)));
  }

  /** Our own producer: ticket "rows" streams the values 1, 2, 3; "boom" fails as INTERNAL. */
  private final class Rows extends NoOpFlightProducer {
    @Override
    public void getStream(CallContext context, Ticket ticket, ServerStreamListener listener) {
      String what = new String(ticket.getBytes(), StandardCharsets.UTF_8);
      if (what.equals("boom")) {
        listener.error(CallStatus.INTERNAL.withDescription("planned fault").toRuntimeException());
        return;
      }
      try (BigIntVector v = new BigIntVector("n", allocator)) {
        v.allocateNew(3);
        for (int i = 0; i < 3; i++) {
          v.set(i, i + 1);
        }
        v.setValueCount(3);
        try (VectorSchemaRoot root = VectorSchemaRoot.of(v)) {
          listener.start(root);
          listener.putNext();
          listener.completed();
        }
      }
    }
  }
}
