package dev.lake.app;

import static dev.lake.frontdoor.DurableFlightCalls.download;
import static dev.lake.frontdoor.DurableFlightCalls.flightError;
import static dev.lake.frontdoor.DurableFlightCalls.pollToEnd;
import static dev.lake.frontdoor.DurableFlightCalls.rows;
import static dev.lake.frontdoor.DurableFlightCalls.statement;
import static dev.lake.frontdoor.TestLake.bearer;
import static org.assertj.core.api.Assertions.assertThat;

import com.google.protobuf.Any;
import dev.lake.aws.KmsKeyService;
import dev.lake.aws.testing.AwsTestKit;
import dev.lake.aws.testing.MotoExtension;
import dev.lake.core.testing.Poll;
import dev.lake.durable.DurableTier;
import dev.lake.durable.DurableTierConfig;
import dev.lake.frontdoor.Components;
import dev.lake.frontdoor.FrontDoorConfig;
import dev.lake.frontdoor.LakeServer;
import dev.lake.frontdoor.PrincipalEntry;
import dev.lake.frontdoor.Principals;
import dev.lake.lance.demo.TpchDemo;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.arrow.flight.FlightClient;
import org.apache.arrow.flight.FlightEndpoint;
import org.apache.arrow.flight.FlightInfo;
import org.apache.arrow.flight.FlightStatusCode;
import org.apache.arrow.flight.Location;
import org.apache.arrow.flight.PollInfo;
import org.apache.arrow.flight.Ticket;
import org.apache.arrow.flight.sql.FlightSqlClient;
import org.apache.arrow.flight.sql.impl.FlightSql.TicketStatementQuery;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * Any replica serves any ticket: two front doors wired as {@code serve --durable aws}, each with
 * its own runtime (its own KMS key ring cache, engine and catalogs) over the same moto-backed
 * registry, job table, queue, result bucket and key ring. What one seals — statement tickets, poll
 * descriptors, part tickets — the other redeems, also while the ring rotates under traffic.
 */
@ExtendWith(MotoExtension.class)
class AnyReplicaAwsTest {
  private static final String TOKEN = "t";
  private static final String OTHER_TENANT = "u";

  @TempDir Path dir;
  private final List<AutoCloseable> open = new ArrayList<>();
  private AwsTestKit.Resources aws;

  /** One front door and what it needs to be closed. */
  private record Replica(LakeRuntime runtime, LakeServer server, FlightClient client) {
    KmsKeyService ring() {
      return (KmsKeyService) runtime.keys();
    }
  }

  @AfterEach
  void close() throws Exception {
    for (int i = open.size() - 1; i >= 0; i--) {
      open.get(i).close();
    }
    if (aws != null) {
      aws.clients().close();
    }
  }

  private Replica replica(String name, int workers) {
    DurableTierConfig config = DurableAwsEndToEndTest.tierConfig(workers, 4_000);
    LakeRuntime runtime = DurableAwsEndToEndTest.runtime(dir, "spill-" + name, aws);
    Components components = Wiring.components(runtime); // closes the runtime
    open.add(components);
    DurableTier tier = Wiring.awsDurableTier(runtime, components, config, Clock.systemUTC());
    open.add(tier);
    LakeServer server =
        LakeServer.start(
            FrontDoorConfig.defaults().withListener("127.0.0.1", 0),
            components,
            new Principals(
                List.of(
                    new PrincipalEntry(
                        Principals.sha256Hex(TOKEN), "acme", "alice", List.of("lake.tpch")),
                    new PrincipalEntry(
                        Principals.sha256Hex(OTHER_TENANT),
                        "globex",
                        "gina",
                        List.of("lake.tpch")))),
            Clock.systemUTC(),
            Optional.of(tier));
    open.add(server);
    FlightClient client =
        FlightClient.builder(
                runtime.allocator(), Location.forGrpcInsecure("127.0.0.1", server.port()))
            .build();
    open.add(client);
    return new Replica(runtime, server, client);
  }

  /** The key id in a sealed lake envelope: {@code "LK" | version | kind | id length | id}. */
  private static String keyId(byte[] sealed) {
    assertThat(new String(sealed, 0, 2, StandardCharsets.US_ASCII)).isEqualTo("LK");
    return new String(sealed, 5, sealed[4], StandardCharsets.US_ASCII);
  }

  private static byte[] statementHandle(Ticket ticket) throws Exception {
    return Any.parseFrom(ticket.getBytes())
        .unpack(TicketStatementQuery.class)
        .getStatementHandle()
        .toByteArray();
  }

  private static Ticket ticketOf(FlightSqlClient on, String sql, String token) {
    FlightInfo info = on.execute(sql, bearer(token));
    return info.getEndpoints().get(0).getTicket();
  }

  @Test
  void everyTicketKind_sealedOnOneReplica_isRedeemedOnAnother_acrossRotations() throws Exception {
    // GIVEN two replicas over one deployment; only the first runs an in-process worker
    aws = AwsTestKit.create();
    Replica a = replica("a", 1);
    Replica b = replica("b", 0);
    TpchDemo.generate(dir.resolve("data"), 0.01, a.runtime().registry(), a.runtime().allocator());
    FlightSqlClient sqlA = new FlightSqlClient(a.client());
    FlightSqlClient sqlB = new FlightSqlClient(b.client());

    // WHEN a statement ticket sealed by A is redeemed on B
    Ticket statementTicket = ticketOf(sqlA, "SELECT n_name FROM lake.tpch.nation", TOKEN);
    // THEN B streams its rows
    assertThat(rows(b.client(), statementTicket, TOKEN)).hasSize(25);

    // WHEN a poll descriptor sealed by A is polled on B to its end, and B's part tickets are
    // downloaded on A
    PollInfo submitted =
        a.client().pollInfo(statement("SELECT * FROM lake.tpch.orders"), bearer(TOKEN));
    assertThat(submitted.getFlightDescriptor()).isPresent();
    PollInfo done = pollToEnd(b.client(), submitted, TOKEN);
    // THEN every part downloads on the replica that did not seal its ticket
    assertThat(done.getFlightInfo().getEndpoints()).hasSize(4);
    assertThat(download(a.client(), done.getFlightInfo(), TOKEN)).hasSize(15_000);

    // WHEN both rings rotate repeatedly while tickets cross between the replicas
    String before = keyId(statementHandle(statementTicket));
    Ticket oldTicket = ticketOf(sqlB, "SELECT r_name FROM lake.tpch.region", TOKEN);
    List<FlightEndpoint> oldParts = done.getFlightInfo().getEndpoints();
    Set<String> keysSeen = ConcurrentHashMap.newKeySet();
    List<Throwable> failures = new CopyOnWriteArrayList<>();
    AtomicInteger crossed = new AtomicInteger();
    AtomicBoolean stop = new AtomicBoolean();
    Thread traffic =
        new Thread(
            () -> {
              for (int i = 0; !stop.get() || i < 8; i++) {
                boolean fromA = i % 2 == 0;
                try {
                  Ticket t =
                      ticketOf(
                          fromA ? sqlA : sqlB,
                          "SELECT count(*) FROM lake.tpch.customer WHERE c_custkey > " + i,
                          TOKEN);
                  keysSeen.add(keyId(statementHandle(t)));
                  assertThat(rows(fromA ? b.client() : a.client(), t, TOKEN)).hasSize(1);
                  crossed.incrementAndGet();
                } catch (Throwable e) {
                  failures.add(e);
                  return;
                }
              }
            },
            "replica-traffic");
    traffic.start();
    for (int r = 0; r < 3; r++) {
      (r % 2 == 0 ? a : b).ring().rotate();
      // tickets cross both ways after each rotation before the next one
      int after = crossed.get() + 2;
      Poll.until(
          Duration.ofSeconds(60),
          () -> crossed.get() >= after || !failures.isEmpty(),
          "two crossings after rotation " + r);
    }
    stop.set(true);
    traffic.join(Duration.ofSeconds(60).toMillis());
    assertThat(traffic.isAlive()).as("traffic finished").isFalse();

    // THEN no crossing failed, and tickets were sealed under keys the other replica first saw on
    // redemption (B never refreshed its ring in between: KMS refreshes run once a minute)
    assertThat(failures).isEmpty();
    assertThat(crossed.get()).isGreaterThanOrEqualTo(8);
    assertThat(keysSeen).hasSizeGreaterThanOrEqualTo(2);
    // AND what was sealed before the rotations still redeems on the other replica
    assertThat(rows(a.client(), oldTicket, TOKEN)).hasSize(5);
    List<String> again = new ArrayList<>();
    for (FlightEndpoint part : oldParts) {
      again.addAll(rows(b.client(), part.getTicket(), TOKEN));
    }
    assertThat(again).hasSize(15_000);
    // AND a descriptor sealed before the rotations polls on the other replica, whose fresh part
    // tickets are sealed under a newer key and download on the first
    PollInfo repolled = pollToEnd(a.client(), submitted, TOKEN);
    String newer = keyId(repolled.getFlightInfo().getEndpoints().get(0).getTicket().getBytes());
    assertThat(newer).isNotEqualTo(before);
    assertThat(download(b.client(), repolled.getFlightInfo(), TOKEN)).hasSize(15_000);

    // WHEN a ticket names a key id neither ring holds (a forged or foreign envelope)
    byte[] forged = statementHandle(ticketOf(sqlA, "SELECT 1", TOKEN));
    forged[5 + 3] = (byte) (forged[5 + 3] == 'A' ? 'B' : 'A');
    Ticket forgedTicket =
        new Ticket(
            Any.pack(
                    TicketStatementQuery.newBuilder()
                        .setStatementHandle(com.google.protobuf.ByteString.copyFrom(forged))
                        .build())
                .toByteArray());
    // THEN the other replica rejects it as unauthenticated, and serves another tenant's fresh
    // query right after
    assertThat(flightError(() -> rows(b.client(), forgedTicket, TOKEN)).status().code())
        .isEqualTo(FlightStatusCode.UNAUTHENTICATED);
    Ticket fresh =
        ticketOf(sqlA, "SELECT count(*) FROM lake.tpch.supplier WHERE s_suppkey < 7", OTHER_TENANT);
    assertThat(rows(b.client(), fresh, OTHER_TENANT)).containsExactly("6|");
  }
}
