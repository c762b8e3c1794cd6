package dev.lake.app;

import static dev.lake.frontdoor.TestLake.bearer;
import static org.assertj.core.api.Assertions.assertThat;

import com.google.protobuf.Any;
import dev.lake.aws.testing.AwsTestKit;
import dev.lake.aws.testing.MotoExtension;
import dev.lake.core.DataLocations;
import dev.lake.core.job.ResultConfig;
import dev.lake.durable.DurableTier;
import dev.lake.durable.DurableTierConfig;
import dev.lake.durable.DurableTierConfigBuilder;
import dev.lake.durable.WorkerConfigBuilder;
import dev.lake.engine.EngineConfig;
import dev.lake.frontdoor.Components;
import dev.lake.frontdoor.FrontDoorConfig;
import dev.lake.frontdoor.LakeServer;
import dev.lake.frontdoor.PrincipalEntry;
import dev.lake.frontdoor.Principals;
import dev.lake.lance.demo.TpchDemo;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import org.apache.arrow.flight.FlightClient;
import org.apache.arrow.flight.FlightDescriptor;
import org.apache.arrow.flight.FlightEndpoint;
import org.apache.arrow.flight.FlightStream;
import org.apache.arrow.flight.Location;
import org.apache.arrow.flight.PollInfo;
import org.apache.arrow.flight.sql.impl.FlightSql.CommandStatementQuery;
import org.apache.arrow.memory.BufferAllocator;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * The durable tier on the AWS adapters against moto: the front door with DynamoDB jobs, SQS, S3
 * results and the KMS key ring (which also seals statement tickets), and a worker ({@code
 * WorkerRunner} polling SQS with the same processor as Lambda) in the same JVM.
 */
@ExtendWith(MotoExtension.class)
class DurableAwsEndToEndTest {
  @TempDir Path dir;

  @Test
  void pollInfo_onAwsAdapters_publishesPartsAndManifest_andDownloadsThroughTickets()
      throws Exception {
    // GIVEN fresh AWS resources, TPC-H data and a front door wired as `serve --durable aws`
    AwsTestKit.Resources aws = AwsTestKit.create();
    Clock clock = Clock.systemUTC();
    DurableTierConfig config = tierConfig(1, 10_000);
    // the composition root as `serve --durable aws` uses it; the components close the runtime
    LakeRuntime runtime = runtime(dir, "spill", aws);
    try {
      BufferAllocator allocator = runtime.allocator();
      try (Components components = Wiring.components(runtime);
          DurableTier tier = Wiring.awsDurableTier(runtime, components, config, clock);
          LakeServer server =
              LakeServer.start(
                  FrontDoorConfig.defaults().withListener("127.0.0.1", 0),
                  components,
                  new Principals(
                      List.of(
                          new PrincipalEntry(
                              Principals.sha256Hex("t"), "acme", "alice", List.of("lake.tpch")))),
                  clock,
                  Optional.of(tier));
          FlightClient client =
              FlightClient.builder(allocator, Location.forGrpcInsecure("127.0.0.1", server.port()))
                  .build()) {
        TpchDemo.generate(dir.resolve("data"), 0.01, runtime.registry(), allocator);
        // WHEN lineitem is submitted with PollFlightInfo and polled to completion
        PollInfo info =
            client.pollInfo(
                FlightDescriptor.command(
                    Any.pack(
                            CommandStatementQuery.newBuilder()
                                .setQuery("SELECT * FROM lake.tpch.lineitem")
                                .build())
                        .toByteArray()),
                bearer("t"));
        long deadline = System.nanoTime() + Duration.ofSeconds(90).toNanos();
        while (info.getFlightDescriptor().isPresent()) {
          assertThat(System.nanoTime()).as("job finished in time").isLessThan(deadline);
          info = client.pollInfo(info.getFlightDescriptor().get(), bearer("t"));
        }
        // THEN S3 holds N parts + one manifest under results/<tenant>/<query id>/
        List<String> keys3 = resultKeys(aws, "results/acme/");
        assertThat(keys3).hasSize(8);
        String queryDir = keys3.get(0).substring(0, keys3.get(0).lastIndexOf('/') + 1);
        assertThat(queryDir).matches("results/acme/q[A-Za-z0-9_-]{22}/");
        assertThat(keys3).allMatch(k -> k.startsWith(queryDir));
        assertThat(keys3.get(0)).endsWith("/manifest.json");
        assertThat(keys3.get(7)).endsWith("/part-00006.arrow");
        // AND every part downloads through its ticket
        assertThat(info.getFlightInfo().getEndpoints()).hasSize(7);
        long rows = 0;
        for (FlightEndpoint endpoint : info.getFlightInfo().getEndpoints()) {
          try (FlightStream stream = client.getStream(endpoint.getTicket(), bearer("t"))) {
            while (stream.next()) {
              rows += stream.getRoot().getRowCount();
            }
          }
        }
        assertThat(rows).isEqualTo(60_175);
      }
    } finally {
      aws.clients().close();
    }
  }

  /** The keys under {@code prefix} in the result bucket, sorted. */
  static List<String> resultKeys(AwsTestKit.Resources aws, String prefix) {
    return aws
        .clients()
        .s3()
        .listObjectsV2(b -> b.bucket(aws.config().bucket()).prefix(prefix))
        .contents()
        .stream()
        .map(o -> o.key())
        .sorted()
        .toList();
  }

  /**
   * A tier as {@code serve --durable aws} wires it, with short waits and leases for tests, {@code
   * workers} in-process workers and parts of at most {@code maxPartRows} rows.
   */
  static DurableTierConfig tierConfig(int workers, int maxPartRows) {
    return DurableTierConfigBuilder.builder()
        .pollWait(Duration.ofMillis(500))
        .waitBudget(Duration.ofSeconds(30))
        .workers(workers)
        .worker(
            WorkerConfigBuilder.builder()
                .lease(Duration.ofSeconds(30))
                .renewEvery(Duration.ofSeconds(5))
                .maxExecution(Duration.ofMinutes(2))
                .lambdaMargin(Duration.ofSeconds(1))
                .retryDelay(Duration.ofSeconds(1))
                .build())
        .build()
        .withResultPrefix("results")
        .withResults(
            ResultConfig.defaults().withMaxPartRows(maxPartRows).withMaxBatchRows(100_000));
  }

  /**
   * The composition root as {@code serve --durable aws} uses it: the file registry {@code
   * dir/registry.json} (read fresh every time, so replicas see each other's registrations), the KMS
   * key ring and AWS ports of {@code aws}, spilling to {@code dir/spill}.
   */
  static LakeRuntime runtime(Path dir, String spill, AwsTestKit.Resources aws) {
    return LakeRuntime.start(
        RuntimeConfig.builder(
                RegistrySource.file(dir.resolve("registry.json")).withFreshness(Duration.ZERO),
                new KeySource.Kms(),
                EngineConfig.defaults(dir.resolve(spill)))
            // the demo tables lie under dir/data on this host (a registry file, not a fleet's)
            .formatSettings(List.of(DataLocations.of(dir.resolve("data"))))
            .aws(Optional.of(aws.config()))
            .build());
  }
}
