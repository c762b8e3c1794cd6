package dev.lake.app;

import static java.util.Objects.requireNonNull;

import dev.lake.aws.AwsClients;
import dev.lake.aws.AwsConfig;
import dev.lake.aws.AwsEmulator;
import dev.lake.aws.DynamoDbJobStore;
import dev.lake.aws.DynamoDbRegistry;
import dev.lake.core.DeploymentNames;
import dev.lake.core.TableFormats;
import dev.lake.core.TableRef;
import dev.lake.frontdoor.PrincipalEntry;
import dev.lake.frontdoor.Principals;
import dev.lake.lance.LanceStorage;
import dev.lake.lance.demo.TpchDemo;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Pattern;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import software.amazon.awssdk.services.dynamodb.model.ResourceInUseException;
import software.amazon.awssdk.services.kms.model.NotFoundException;
import software.amazon.awssdk.services.s3.model.BucketAlreadyOwnedByYouException;
import software.amazon.awssdk.services.sqs.model.QueueAttributeName;

/**
 * {@code bin/lake aws-local}: the AWS deployment on one machine. On an emulator (LocalStack or moto
 * named by {@code LAKE_TEST_AWS_ENDPOINT}, else a {@code moto_server} it starts) it creates the
 * deployment's resources with the names of {@link DeploymentNames}, writes the TPC-H demo tables as
 * Lance datasets to S3 and registers them in the DynamoDB registry, then starts the front door as
 * {@code lake serve --durable aws} and the worker as {@code lake worker} — separate JVMs configured
 * only through {@code LAKE_*} variables, exactly as ECS and Lambda configure them. With {@code
 * replicas} N, N front doors run side by side (replica i on {@code port + i}, or each on a free
 * port when {@code port} is 0), sharing the one registry, job table, queue and key ring, as
 * replicas behind a load balancer do: any of them redeems what another sealed. Closing stops the
 * worker, the front doors and the emulator it started.
 */
final class AwsLocal implements AutoCloseable {
  static final Pattern FRONT_DOOR_READY = Pattern.compile("lake ready on (\\S+):(\\d+)");
  static final Pattern WORKER_READY = Pattern.compile("lake worker ready");

  /** Generous: two JVMs loading Lance and DuckDB on a busy 2-core machine. */
  private static final Duration START_WITHIN = Duration.ofMinutes(3);

  /**
   * @param emulator a running emulator to use (tests); else {@code LAKE_TEST_AWS_ENDPOINT} or a new
   *     moto_server
   * @param extraEnv more {@code LAKE_*} settings for every process (e.g. {@code LAKE_ICEBERG_REST},
   *     worker lease settings in tests)
   * @param replicas how many front doors, 1 to {@link #MAX_REPLICAS}
   * @param emulatorPort the loopback port of the moto_server it starts (0 = any free port)
   */
  record Options(
      Path dataDir,
      String host,
      int port,
      Optional<String> token,
      double scale,
      Optional<java.net.URI> emulator,
      Map<String, String> extraEnv,
      int replicas,
      int emulatorPort) {
    /** Most front doors one machine runs (each is a JVM with its own engine). */
    static final int MAX_REPLICAS = 8;

    Options {
      requireNonNull(emulator, "emulator is null");
      requireNonNull(dataDir, "dataDir is null");
      requireNonNull(host, "host is null");
      requireNonNull(token, "token is null");
      extraEnv = Map.copyOf(requireNonNull(extraEnv, "extraEnv is null"));
      if (!(scale > 0 && scale <= 10)) {
        throw new IllegalArgumentException("scale must be in (0, 10]: " + scale);
      }
      if (replicas < 1 || replicas > MAX_REPLICAS) {
        throw new IllegalArgumentException(
            "--replicas must be in [1, " + MAX_REPLICAS + "]: " + replicas);
      }
      if (emulatorPort < 0 || emulatorPort > 65_535) {
        throw new IllegalArgumentException(
            "--emulator-port must be in [0, 65535]: " + emulatorPort);
      }
      if (port != 0 && port + replicas - 1 > 65_535) {
        throw new IllegalArgumentException(
            "--port " + port + " + " + (replicas - 1) + " replicas exceeds port 65535");
      }
      dataDir = dataDir.toAbsolutePath().normalize();
    }
  }

  private final Options options;
  private final AwsEmulator emulator;
  private final AwsConfig aws;
  private final Map<String, String> env;
  private final String token;

  /** Replica i's process and bound port at index i. */
  private final ChildProcess[] frontDoors;

  private final int[] ports;
  private volatile ChildProcess worker;

  private AwsLocal(
      Options options, AwsEmulator emulator, AwsConfig aws, Map<String, String> env, String token) {
    this.options = options;
    this.emulator = emulator;
    this.aws = aws;
    this.env = env;
    this.token = token;
    this.frontDoors = new ChildProcess[options.replicas()];
    this.ports = new int[options.replicas()];
  }

  static AwsLocal start(Options options, PrintWriter out) {
    Path logs = options.dataDir().resolve("logs");
    try {
      Files.createDirectories(logs);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot create " + logs, e);
    }
    AwsEmulator emulator =
        options
            .emulator()
            .map(AwsEmulator::external)
            .orElseGet(
                () -> AwsEmulator.start(logs.resolve("emulator.log"), options.emulatorPort()));
    AwsLocal lake = null;
    try {
      out.println("AWS emulator: " + emulator.endpoint());
      out.flush();
      DeploymentNames names = DeploymentNames.defaults();
      AwsConfig aws = createResources(emulator, names);
      seedDemoTables(aws, names, options.scale(), out);
      String token =
          options
              .token()
              .orElseGet(
                  () -> LocalLake.loadOrCreateToken(options.dataDir().resolve("demo-token")));
      Path principals = options.dataDir().resolve("principals.json");
      Principals.write(
          principals,
          List.of(
              new PrincipalEntry(
                  Principals.sha256Hex(token),
                  LocalLake.DEMO_TENANT,
                  LocalLake.DEMO_PRINCIPAL,
                  grants(options))));
      Map<String, String> env = new HashMap<>();
      env.put("LAKE_AWS_ENDPOINT", aws.endpoint().orElseThrow().toString());
      env.put("LAKE_AWS_REGION", aws.region());
      env.put("LAKE_RESULT_BUCKET", aws.bucket());
      env.put("LAKE_JOB_TABLE", aws.jobTable());
      env.put("LAKE_JOB_QUEUE_URL", aws.queueUrl());
      env.put("LAKE_KMS_KEY_ID", aws.kmsKeyId());
      env.put("LAKE_REGISTRY_TABLE", names.registryTable());
      env.put("LAKE_PRINCIPALS_FILE", principals.toString());
      env.put("LAKE_DURABLE", "aws");
      env.put("LAKE_HOST", options.host());
      // the demo tables' prefix, and whatever else the caller allows (e.g. an Iceberg warehouse)
      env.put("LAKE_DATA_LOCATIONS", names.lanceBase() + "/");
      options
          .extraEnv()
          .forEach(
              (k, v) ->
                  env.merge(k, v, (a, b) -> k.equals("LAKE_DATA_LOCATIONS") ? a + "," + b : b));
      lake = new AwsLocal(options, emulator, aws, Map.copyOf(env), token);
      // every JVM starts at once; each is awaited
      for (int i = 0; i < options.replicas(); i++) {
        lake.launchFrontDoor(i, options.port() == 0 ? 0 : options.port() + i);
      }
      ChildProcess worker = lake.launchWorker();
      for (int i = 0; i < options.replicas(); i++) {
        lake.awaitFrontDoor(i);
      }
      worker.awaitLine(WORKER_READY, START_WITHIN);
      return lake;
    } catch (RuntimeException e) {
      if (lake != null) {
        lake.close();
      } else {
        emulator.close();
      }
      throw e;
    }
  }

  /**
   * The demo principal's grants: the TPC-H namespace plus what the formats' settings in the extra
   * variables expose (e.g. the Iceberg allowlist of {@code LAKE_ICEBERG_*} if federated).
   */
  private static List<String> grants(Options options) {
    List<String> grants = new ArrayList<>(List.of(LocalLake.DEMO_GRANT));
    TableFormats.installed()
        .grantsToRead(FormatFlags.fromEnvironment(options.extraEnv()))
        .forEach(g -> grants.add(g.toString()));
    return grants;
  }

  /** Creates (or finds) the deployment's bucket, tables, queues and key on the emulator. */
  static AwsConfig createResources(AwsEmulator emulator, DeploymentNames names) {
    AwsConfig bootstrap =
        new AwsConfig(
            "us-east-1",
            Optional.of(emulator.endpoint()),
            names.bucket(),
            names.jobTable(),
            "-",
            "-",
            AwsConfig.DEFAULT_CALL_TIMEOUT);
    try (AwsClients clients = new AwsClients(bootstrap)) {
      try {
        clients.s3().createBucket(b -> b.bucket(names.bucket()));
      } catch (BucketAlreadyOwnedByYouException exists) {
        // a reused emulator: keep it
      }
      try {
        DynamoDbJobStore.createTable(clients.dynamo(), names.jobTable());
      } catch (ResourceInUseException exists) {
        // kept
      }
      try {
        DynamoDbRegistry.createTable(clients.dynamo(), names.registryTable());
      } catch (ResourceInUseException exists) {
        // kept
      }
      String dlqUrl =
          clients.sqs().createQueue(b -> b.queueName(names.deadLetterQueue())).queueUrl();
      String dlqArn =
          clients
              .sqs()
              .getQueueAttributes(
                  b -> b.queueUrl(dlqUrl).attributeNames(QueueAttributeName.QUEUE_ARN))
              .attributes()
              .get(QueueAttributeName.QUEUE_ARN);
      String queueUrl =
          clients
              .sqs()
              .createQueue(
                  b ->
                      b.queueName(names.queue())
                          .attributes(
                              Map.of(
                                  QueueAttributeName.VISIBILITY_TIMEOUT,
                                  Long.toString(names.visibilityTimeout().toSeconds()),
                                  QueueAttributeName.REDRIVE_POLICY,
                                  "{\"deadLetterTargetArn\":\""
                                      + dlqArn
                                      + "\",\"maxReceiveCount\":\""
                                      + names.maxReceiveCount()
                                      + "\"}")))
              .queueUrl();
      String keyId;
      try {
        keyId = clients.kms().describeKey(b -> b.keyId(names.kmsKeyAlias())).keyMetadata().keyId();
      } catch (NotFoundException missing) {
        keyId =
            clients.kms().createKey(b -> b.description("lake ticket keys")).keyMetadata().keyId();
        String created = keyId;
        clients.kms().createAlias(b -> b.aliasName(names.kmsKeyAlias()).targetKeyId(created));
      }
      return new AwsConfig(
          bootstrap.region(),
          bootstrap.endpoint(),
          names.bucket(),
          names.jobTable(),
          queueUrl,
          keyId,
          bootstrap.apiCallTimeout());
    }
  }

  /** TPC-H as Lance datasets under {@code s3://<bucket>/lance/tpch/}, registered in DynamoDB. */
  private static void seedDemoTables(
      AwsConfig aws, DeploymentNames names, double scale, PrintWriter out) {
    try (AwsClients clients = new AwsClients(aws);
        BufferAllocator allocator = new RootAllocator()) {
      DynamoDbRegistry registry = new DynamoDbRegistry(clients.dynamo(), names.registryTable());
      if (registry.list().stream()
          .anyMatch(e -> e.ref().qualifiedNamespace().equals("lake.tpch"))) {
        return;
      }
      out.println(
          "Writing TPC-H demo tables (scale " + scale + ") to " + names.lanceBase() + " ...");
      out.flush();
      List<TableRef> tables =
          TpchDemo.generate(
              names.lanceBase(),
              scale,
              registry,
              allocator,
              LanceStorage.options(ObjectStorage.access(Optional.of(aws))),
              line -> {
                out.println(line);
                out.flush();
              });
      out.println("Registered " + tables.size() + " tables in " + names.registryTable());
    }
  }

  private void awaitFrontDoor(int replica) {
    ports[replica] =
        Integer.parseInt(frontDoors[replica].awaitLine(FRONT_DOOR_READY, START_WITHIN).group(2));
  }

  /**
   * Starts replica {@code replica}'s {@code lake serve --durable aws} (configured by the
   * environment) on {@code wantedPort}; replica 0 logs to {@code frontdoor.log}, replica i to
   * {@code frontdoor-i.log}.
   */
  private void launchFrontDoor(int replica, int wantedPort) {
    String suffix = replica == 0 ? "" : "-" + replica;
    Map<String, String> e = new HashMap<>(env);
    e.put("LAKE_PORT", Integer.toString(wantedPort));
    e.put("LAKE_SPILL_DIR", options.dataDir().resolve("spill-frontdoor" + suffix).toString());
    frontDoors[replica] =
        ChildProcess.start(
            "front door" + suffix,
            LakeCli.class.getName(),
            List.of("serve"),
            e,
            options.dataDir().resolve("logs").resolve("frontdoor" + suffix + ".log"));
  }

  /** Starts {@code lake worker} (configured by the environment). */
  void startWorker() {
    launchWorker().awaitLine(WORKER_READY, START_WITHIN);
  }

  private ChildProcess launchWorker() {
    Map<String, String> e = new HashMap<>(env);
    e.put("LAKE_SPILL_DIR", options.dataDir().resolve("spill-worker").toString());
    ChildProcess started =
        ChildProcess.start(
            "worker",
            WorkerMain.class.getName(),
            List.of(),
            e,
            options.dataDir().resolve("logs").resolve("worker.log"));
    worker = started;
    return started;
  }

  /** Stops the first front door (SIGTERM) and starts a new one on the same port. */
  void restartFrontDoor() {
    frontDoors[0].close();
    launchFrontDoor(0, ports[0]);
    awaitFrontDoor(0);
  }

  /** Kills the worker without warning (SIGKILL), as a crashed container would die. */
  void killWorker() {
    worker.kill();
  }

  /** The first front door's port. */
  int port() {
    return ports[0];
  }

  /** Replica {@code replica}'s port. */
  int port(int replica) {
    return ports[replica];
  }

  String token() {
    return token;
  }

  AwsConfig aws() {
    return aws;
  }

  String jdbcUrl() {
    return LocalLake.jdbcUrl(options.host(), ports[0], token);
  }

  /** Every front door as {@code grpc://host:port}, replica i at index i. */
  List<String> urls() {
    return java.util.Arrays.stream(ports)
        .mapToObj(p -> "grpc://" + options.host() + ":" + p)
        .toList();
  }

  @Override
  public void close() {
    AwsLocalStop.inOrder(
        Optional.ofNullable(worker), java.util.Arrays.asList(frontDoors), emulator);
  }
}
