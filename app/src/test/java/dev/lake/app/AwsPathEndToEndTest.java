package dev.lake.app;

import static dev.lake.frontdoor.DurableFlightCalls.flightError;
import static dev.lake.frontdoor.DurableFlightCalls.statement;
import static dev.lake.frontdoor.TestLake.bearer;
import static org.assertj.core.api.Assertions.assertThat;

import dev.lake.aws.AwsClients;
import dev.lake.aws.testing.MotoExtension;
import dev.lake.core.DeploymentNames;
import dev.lake.core.testing.Poll;
import dev.lake.frontdoor.DurableEndToEndTest;
import dev.lake.iceberg.demo.DemoTables;
import dev.lake.iceberg.demo.RestCatalogFixture;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.atomic.AtomicReference;
import java.util.stream.Collectors;
import org.apache.arrow.flight.CancelFlightInfoRequest;
import org.apache.arrow.flight.CancelStatus;
import org.apache.arrow.flight.FlightClient;
import org.apache.arrow.flight.FlightEndpoint;
import org.apache.arrow.flight.FlightInfo;
import org.apache.arrow.flight.FlightRuntimeException;
import org.apache.arrow.flight.FlightStatusCode;
import org.apache.arrow.flight.FlightStream;
import org.apache.arrow.flight.Location;
import org.apache.arrow.flight.PollInfo;
import org.apache.arrow.flight.sql.FlightSqlClient;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.BigIntVector;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

/**
 * The AWS path end to end on moto, as {@code bin/lake aws-local} runs it: the front door is {@code
 * lake serve --durable aws} and the worker {@code lake worker}, two separate JVMs configured only
 * by {@code LAKE_*} variables; TPC-H as Lance datasets in S3 registered in the DynamoDB registry;
 * Iceberg tables with S3 data through a REST catalog; two front-door replicas ({@code --replicas
 * 2}). Interactive queries, PollFlightInfo with part downloads, tickets crossing replicas,
 * cancellation, a front-door restart mid-poll and a worker killed mid-job.
 */
@ExtendWith(MotoExtension.class)
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class AwsPathEndToEndTest {
  /**
   * A job of about a second on a quiet machine (22.5 M hashed pairs), with a known answer: long
   * enough to restart or kill something while it runs, short enough to run twice.
   */
  static final String MEDIUM =
      "SELECT count(*) FROM lake.tpch.orders a, lake.tpch.customer b"
          + " WHERE hash(a.o_comment || b.c_comment) IS NOT NULL";

  static final long MEDIUM_ROWS = 15_000L * 1_500L;

  @TempDir static Path dir;
  AwsLocal lake;
  RestCatalogFixture iceberg;
  BufferAllocator allocator;
  AwsClients aws;

  @BeforeAll
  void start() throws Exception {
    // GIVEN an Iceberg REST catalog whose data files live in S3 on the emulator
    aws = new AwsClients(MotoExtension.clientsConfig());
    aws.s3().createBucket(b -> b.bucket("lake-iceberg"));
    Map<String, String> s3 = new HashMap<>();
    s3.put("io-impl", "org.apache.iceberg.aws.s3.S3FileIO");
    s3.put("s3.endpoint", MotoExtension.endpoint().toString());
    s3.put("s3.path-style-access", "true");
    s3.put("s3.access-key-id", "test");
    s3.put("s3.secret-access-key", "test");
    s3.put("client.region", "us-east-1");
    s3.put("http-client.type", "urlconnection");
    iceberg =
        RestCatalogFixture.start(
            dir.resolve("iceberg"), "s3://lake-iceberg/warehouse", s3, 0, Optional.empty());
    DemoTables.create(iceberg.backend());
    // AND the deployment as aws-local starts it, federating that catalog, with short leases
    Map<String, String> env = new HashMap<>();
    env.put("LAKE_ICEBERG_REST", iceberg.uri().toString());
    env.put("LAKE_ICEBERG_ALLOW", "demo");
    // the warehouse's prefix beside the demo tables' (AwsLocal adds those)
    env.put("LAKE_DATA_LOCATIONS", "s3://lake-iceberg/warehouse/");
    env.put("LAKE_WORKER_LEASE_SECONDS", "4");
    env.put("LAKE_WORKER_RENEW_SECONDS", "1");
    env.put("LAKE_WORKER_RETRY_DELAY_SECONDS", "1");
    lake =
        AwsLocal.start(
            new AwsLocal.Options(
                dir.resolve("lake"),
                "127.0.0.1",
                0,
                Optional.of("aws-token"),
                0.01,
                Optional.of(MotoExtension.endpoint()),
                env,
                2,
                0),
            new PrintWriter(new StringWriter()));
    allocator = new RootAllocator();
  }

  @AfterAll
  void stop() throws Exception {
    if (lake != null) {
      lake.close();
    }
    if (iceberg != null) {
      iceberg.close();
    }
    if (aws != null) {
      aws.close();
    }
    if (allocator != null) {
      allocator.close();
    }
  }

  FlightClient client() {
    return client(0);
  }

  FlightClient client(int replica) {
    return FlightClient.builder(
            allocator, Location.forGrpcInsecure("127.0.0.1", lake.port(replica)))
        .build();
  }

  long count(FlightClient client, String sql) throws Exception {
    FlightSqlClient sqlClient = new FlightSqlClient(client);
    FlightInfo info = sqlClient.execute(sql, bearer("aws-token"));
    long value = -1;
    try (FlightStream stream =
        client.getStream(info.getEndpoints().get(0).getTicket(), bearer("aws-token"))) {
      while (stream.next()) {
        if (stream.getRoot().getRowCount() > 0) {
          value = ((BigIntVector) stream.getRoot().getVector(0)).get(0);
        }
      }
    }
    return value;
  }

  /** Polls the descriptor to completion; returns the rows of all parts. */
  long pollAndDownload(FlightClient client, PollInfo info) throws Exception {
    long deadline = System.nanoTime() + Duration.ofSeconds(90).toNanos();
    while (info.getFlightDescriptor().isPresent()) {
      assertThat(System.nanoTime()).as("job finished in time").isLessThan(deadline);
      info = client.pollInfo(info.getFlightDescriptor().get(), bearer("aws-token"));
    }
    long rows = 0;
    for (FlightEndpoint endpoint : info.getFlightInfo().getEndpoints()) {
      try (FlightStream stream = client.getStream(endpoint.getTicket(), bearer("aws-token"))) {
        while (stream.next()) {
          rows += stream.getRoot().getRowCount();
        }
      }
    }
    return rows;
  }

  /**
   * Job states in the deployment's DynamoDB job table, by job id. The table also holds the job
   * store's accounting items (per-tenant and global job sets), which have no state.
   */
  Map<String, String> jobStates() {
    return aws
        .dynamo()
        .scan(b -> b.tableName(DeploymentNames.defaults().jobTable()).consistentRead(true))
        .items()
        .stream()
        .filter(i -> i.containsKey("state"))
        .collect(Collectors.toMap(i -> i.get("id").s(), i -> i.get("state").s(), (a, b) -> a));
  }

  String awaitRunning(Set<String> before) {
    AtomicReference<String> running = new AtomicReference<>();
    Poll.until(
        Duration.ofSeconds(30),
        () -> {
          jobStates().entrySet().stream()
              .filter(e -> !before.contains(e.getKey()) && e.getValue().equals("RUNNING"))
              .map(Map.Entry::getKey)
              .findFirst()
              .ifPresent(running::set);
          return running.get() != null;
        },
        "a worker claimed the job");
    return running.get();
  }

  @Test
  void interactive_readsLanceInS3_andIcebergOnS3_throughTheRestCatalog() throws Exception {
    try (FlightClient client = client()) {
      // Lance datasets in S3, resolved through the DynamoDB registry
      assertThat(count(client, "SELECT count(*) FROM lake.tpch.lineitem")).isEqualTo(60_175);
      // Iceberg data files in S3, joined with a Lance table
      assertThat(
              count(
                  client,
                  "SELECT count(*) FROM iceberg.demo.nation n JOIN lake.tpch.region r"
                      + " ON n.n_regionkey = r.r_regionkey"))
          .isEqualTo(25);
    }
  }

  @Test
  void pollFlightInfo_runsOnTheWorkerProcess_andEveryPartDownloads() throws Exception {
    try (FlightClient client = client()) {
      PollInfo submitted =
          client.pollInfo(statement("SELECT * FROM lake.tpch.lineitem"), bearer("aws-token"));
      assertThat(pollAndDownload(client, submitted)).isEqualTo(60_175);
    }
  }

  @Test
  void secondReplica_redeemsWhatTheFirstSealed_andTheFirstWhatTheSecondSealed() throws Exception {
    try (FlightClient first = client(0);
        FlightClient second = client(1)) {
      // a poll descriptor of the first replica polls to its end, and its parts download, on the
      // second
      PollInfo submitted =
          first.pollInfo(statement("SELECT * FROM lake.tpch.orders"), bearer("aws-token"));
      assertThat(pollAndDownload(second, submitted)).isEqualTo(15_000);
      // a statement ticket of the second streams on the first
      FlightInfo info =
          new FlightSqlClient(second)
              .execute("SELECT count(*) FROM lake.tpch.nation", bearer("aws-token"));
      try (FlightStream stream =
          first.getStream(info.getEndpoints().get(0).getTicket(), bearer("aws-token"))) {
        assertThat(stream.next()).isTrue();
        assertThat(((BigIntVector) stream.getRoot().getVector(0)).get(0)).isEqualTo(25);
      }
    }
  }

  @Test
  void cancelFlightInfo_stopsARunningJob() throws Exception {
    try (FlightClient client = client()) {
      Set<String> before = jobStates().keySet();
      PollInfo submitted =
          client.pollInfo(statement(DurableEndToEndTest.SLOW), bearer("aws-token"));
      String job = awaitRunning(before);
      CancelStatus status =
          client
              .cancelFlightInfo(
                  new CancelFlightInfoRequest(submitted.getFlightInfo()), bearer("aws-token"))
              .getStatus();
      assertThat(status).isEqualTo(CancelStatus.CANCELLING);
      FlightRuntimeException polled =
          flightError(
              () -> client.pollInfo(submitted.getFlightDescriptor().get(), bearer("aws-token")));
      assertThat(polled.status().code()).isEqualTo(FlightStatusCode.CANCELLED);
      assertThat(jobStates().get(job)).isEqualTo("CANCELLED");
      // AND the next query still works
      assertThat(count(client, "SELECT count(*) FROM lake.tpch.nation")).isEqualTo(25);
    }
  }

  @Test
  void frontDoorRestart_midPoll_losesNothing() throws Exception {
    PollInfo submitted;
    try (FlightClient client = client()) {
      submitted = client.pollInfo(statement(MEDIUM), bearer("aws-token"));
      assertThat(submitted.getFlightDescriptor()).isPresent();
    }
    // WHEN the front door restarts while the worker runs the job
    lake.restartFrontDoor();
    // THEN polling the same descriptor on the new front door finishes with the one result row
    try (FlightClient client = client()) {
      assertThat(pollAndDownload(client, submitted)).isEqualTo(1);
    }
  }

  @Test
  void workerKilledMidJob_anotherWorkerTakesOver_andLosesNothing() throws Exception {
    try (FlightClient client = client()) {
      Set<String> before = jobStates().keySet();
      PollInfo submitted = client.pollInfo(statement(MEDIUM + " AND 1 = 1"), bearer("aws-token"));
      String job = awaitRunning(before);
      // WHEN the worker dies without a word (SIGKILL) and a new one starts
      lake.killWorker();
      lake.startWorker();
      // THEN the job finishes once its lease expired, with the same answer
      long deadline = System.nanoTime() + Duration.ofSeconds(90).toNanos();
      PollInfo info = submitted;
      while (info.getFlightDescriptor().isPresent()) {
        assertThat(System.nanoTime()).as("job finished in time").isLessThan(deadline);
        info = client.pollInfo(info.getFlightDescriptor().get(), bearer("aws-token"));
      }
      try (FlightStream stream =
          client.getStream(
              info.getFlightInfo().getEndpoints().get(0).getTicket(), bearer("aws-token"))) {
        assertThat(stream.next()).isTrue();
        assertThat(((BigIntVector) stream.getRoot().getVector(0)).get(0)).isEqualTo(MEDIUM_ROWS);
      }
      assertThat(jobStates().get(job)).isEqualTo("SUCCEEDED");
      assertThat(
              aws.dynamo()
                  .getItem(
                      b ->
                          b.tableName(DeploymentNames.defaults().jobTable())
                              .key(Map.of("id", AttributeValue.fromS(job)))
                              .consistentRead(true))
                  .item()
                  .get("attempt")
                  .n())
          .isEqualTo("2");
    }
  }
}
