package dev.lake.app;

import static dev.lake.frontdoor.DurableFlightCalls.download;
import static dev.lake.frontdoor.DurableFlightCalls.flightError;
import static dev.lake.frontdoor.DurableFlightCalls.pollToEnd;
import static dev.lake.frontdoor.DurableFlightCalls.statement;
import static dev.lake.frontdoor.TestLake.bearer;
import static org.assertj.core.api.Assertions.assertThat;

import dev.lake.aws.testing.AwsTestKit;
import dev.lake.aws.testing.MotoExtension;
import dev.lake.core.DataLocations;
import dev.lake.durable.DurableTier;
import dev.lake.engine.EngineConfig;
import dev.lake.engine.EngineConfigBuilder;
import dev.lake.frontdoor.Components;
import dev.lake.frontdoor.FrontDoorConfig;
import dev.lake.frontdoor.LakeServer;
import dev.lake.frontdoor.PrincipalEntry;
import dev.lake.frontdoor.Principals;
import dev.lake.lance.demo.TpchDemo;
import dev.lake.sandbox.SandboxConfig;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import org.apache.arrow.flight.FlightClient;
import org.apache.arrow.flight.FlightRuntimeException;
import org.apache.arrow.flight.FlightStatusCode;
import org.apache.arrow.flight.Location;
import org.apache.arrow.flight.PollInfo;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * A worker's engine child process killed mid-statement on the AWS path (DynamoDB jobs, SQS, S3
 * results on moto; engine isolation {@code process}, the default of every command): the job's
 * attempt ends cleanly — the job fails with an error the client is told, nothing is published under
 * the tenant's results, its places are released — and the supervisor's next engine process serves
 * the next tenant's fresh statement.
 */
@ExtendWith(MotoExtension.class)
class EngineChildKillAwsTest {
  /**
   * An edit distance of two 200-character strings per row: seconds of engine CPU, little memory.
   */
  static final String SLOW =
      "SELECT l_orderkey FROM lake.tpch.lineitem WHERE levenshtein(concat(l_comment, l_comment,"
          + " l_comment, l_comment, l_comment), reverse(concat(l_comment, l_comment, l_comment,"
          + " l_comment, l_comment))) < 0";

  @TempDir Path dir;

  @Test
  void killingTheEngineChildMidJob_failsTheAttemptCleanly_andTheNextTenantRuns() throws Exception {
    // GIVEN the durable tier on the AWS adapters with engine child processes, and TPC-H data
    AwsTestKit.Resources aws = AwsTestKit.create();
    Clock clock = Clock.systemUTC();
    EngineConfig engine =
        EngineConfigBuilder.builder(EngineConfig.defaults(dir.resolve("spill")))
            .memoryLimitBytes(256L << 20)
            .memoryPools(2)
            .snapshotCacheBytes(32L << 20)
            .threads(1)
            .build();
    LakeRuntime runtime =
        LakeRuntime.start(
            RuntimeConfig.builder(
                    RegistrySource.file(dir.resolve("registry.json")).withFreshness(Duration.ZERO),
                    new KeySource.Kms(),
                    engine)
                .formatSettings(List.of(DataLocations.of(dir.resolve("data"))))
                .aws(Optional.of(aws.config()))
                .sandbox(SandboxConfig.defaults().withCeilingBytes(640L << 20))
                .build());
    try (Components components = Wiring.components(runtime);
        DurableTier tier =
            Wiring.awsDurableTier(
                runtime, components, DurableAwsEndToEndTest.tierConfig(1, 10_000), clock);
        LakeServer server =
            LakeServer.start(
                FrontDoorConfig.defaults().withListener("127.0.0.1", 0),
                components,
                new Principals(
                    List.of(
                        new PrincipalEntry(
                            Principals.sha256Hex("a"), "acme", "alice", List.of("lake.tpch")),
                        new PrincipalEntry(
                            Principals.sha256Hex("c"), "globex", "carol", List.of("lake.tpch")))),
                clock,
                Optional.of(tier));
        FlightClient client =
            FlightClient.builder(
                    runtime.allocator(), Location.forGrpcInsecure("127.0.0.1", server.port()))
                .build()) {
      TpchDemo.generate(dir.resolve("data"), 0.01, runtime.registry(), runtime.allocator());
      // (the tenant's engine child started by a first statement, so that the next one's CPU is
      // the statement's, not a JVM's start)
      PollInfo warm =
          pollToEnd(
              client,
              client.pollInfo(statement("SELECT count(*) FROM lake.tpch.region"), bearer("a")),
              "a");
      assertThat(download(client, warm.getFlightInfo(), "a")).containsExactly("5|");
      // WHEN a slow statement is submitted durably and, once its job runs and an engine child
      // works on it, every engine child of this JVM is killed (SIGKILL, as the OOM killer would)
      List<String> before = DurableAwsEndToEndTest.resultKeys(aws, "results/acme/");
      PollInfo submitted = client.pollInfo(statement(SLOW), bearer("a"));
      awaitRunningJob(aws, Duration.ofSeconds(60));
      ProcessHandle busy = awaitBusyEngineChild(Duration.ofSeconds(60));
      engineChildren().forEach(ProcessHandle::destroyForcibly);
      assertThat(busy.onExit().get().isAlive()).isFalse();
      // THEN the job fails with an error the client is told (not a hang, not a partial result)
      FlightRuntimeException failed = flightError(() -> pollToEnd(client, submitted, "a"));
      assertThat(failed.status().code()).isEqualTo(FlightStatusCode.INTERNAL);
      assertThat(failed.status().description()).contains("reference");
      // AND nothing more is published under the tenant's results (its parts deleted)
      assertThat(DurableAwsEndToEndTest.resultKeys(aws, "results/acme/")).isEqualTo(before);
      // AND another tenant's fresh statement runs on a new engine child, durably
      PollInfo next =
          pollToEnd(
              client,
              client.pollInfo(
                  statement("SELECT count(*) FROM lake.tpch.orders WHERE o_orderkey % 5 = 2"),
                  bearer("c")),
              "c");
      assertThat(download(client, next.getFlightInfo(), "c")).containsExactly("3000|");
      // AND the first tenant's places were released: its next statement runs too
      PollInfo again =
          pollToEnd(
              client,
              client.pollInfo(statement("SELECT count(*) FROM lake.tpch.nation"), bearer("a")),
              "a");
      assertThat(download(client, again.getFlightInfo(), "a")).containsExactly("25|");
    } finally {
      aws.clients().close();
    }
  }

  /** Waits until a job in the job table is RUNNING. */
  static void awaitRunningJob(AwsTestKit.Resources aws, Duration timeout)
      throws InterruptedException {
    long deadline = System.nanoTime() + timeout.toNanos();
    while (System.nanoTime() < deadline) {
      boolean running =
          aws.clients().dynamo().scan(b -> b.tableName(aws.config().jobTable())).items().stream()
              .anyMatch(i -> i.containsKey("state") && "RUNNING".equals(i.get("state").s()));
      if (running) {
        return;
      }
      Thread.sleep(100);
    }
    throw new AssertionError("no job ran within " + timeout);
  }

  /**
   * The engine child processes of this JVM: its Java children (the emulator is Python; a child's
   * command line, with its long class path, may be cut before the main class).
   */
  static List<ProcessHandle> engineChildren() {
    return ProcessHandle.current()
        .children()
        .filter(p -> p.info().command().orElse("").endsWith("java"))
        .toList();
  }

  /**
   * The engine child that has used a second of CPU more than when this began, once the job runs:
   * the one running the slow statement (the tenant's child was started by an earlier statement).
   */
  static ProcessHandle awaitBusyEngineChild(Duration timeout) throws InterruptedException {
    java.util.Map<Long, Duration> start = new java.util.HashMap<>();
    long deadline = System.nanoTime() + timeout.toNanos();
    while (System.nanoTime() < deadline) {
      for (ProcessHandle p : engineChildren()) {
        Duration cpu = p.info().totalCpuDuration().orElse(Duration.ZERO);
        Duration first = start.putIfAbsent(p.pid(), cpu);
        if (first != null && cpu.minus(first).compareTo(Duration.ofSeconds(1)) > 0) {
          return p;
        }
      }
      Thread.sleep(100);
    }
    throw new AssertionError("no engine child worked on the statement within " + timeout);
  }
}
