package dev.lake.worker;

import dev.lake.aws.AwsClients;
import dev.lake.aws.AwsConfig;
import dev.lake.aws.DynamoDbJobStore;
import dev.lake.aws.KmsKeyConfig;
import dev.lake.aws.KmsKeyService;
import dev.lake.aws.S3ObjectStore;
import dev.lake.aws.SqsJobQueue;
import dev.lake.core.Catalogs;
import dev.lake.core.TableReader;
import dev.lake.core.TableResolver;
import dev.lake.core.job.DurableConfig;
import dev.lake.core.job.EnvelopeSealer;
import dev.lake.core.job.JobQueue;
import dev.lake.core.job.ResultConfig;
import dev.lake.core.local.FileRegistry;
import dev.lake.engine.DuckDbQueryEngine;
import dev.lake.engine.EngineConfig;
import dev.lake.iceberg.IcebergConfig;
import dev.lake.iceberg.IcebergFederation;
import dev.lake.lance.LanceTableReader;
import dev.lake.lance.LanceTableResolver;
import java.net.InetAddress;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;

/**
 * The AWS-mode wiring of a worker process, built once from environment variables: SDK clients, the
 * DynamoDB job store, SQS queue, S3 results, the KMS-backed key ring shared with the front door,
 * and the DuckDB engine over Lance tables, plus the federated Iceberg REST catalog when {@code
 * LAKE_ICEBERG_REST} is set. See docs/async.md for the variables.
 */
public record WorkerRuntime(JobProcessor processor, JobQueue queue, WorkerConfig config) {
  public static WorkerRuntime fromEnvironment(Map<String, String> env) {
    AwsConfig aws = AwsConfig.fromEnv(env);
    AwsClients clients = new AwsClients(aws);
    WorkerConfig defaults = WorkerConfig.defaults();
    WorkerConfig config =
        new WorkerConfig(
            seconds(env, "LAKE_WORKER_LEASE_SECONDS", defaults.lease()),
            seconds(env, "LAKE_WORKER_RENEW_SECONDS", defaults.renewEvery()),
            seconds(env, "LAKE_WORKER_MAX_EXECUTION_SECONDS", defaults.maxExecution()),
            seconds(env, "LAKE_WORKER_LAMBDA_MARGIN_SECONDS", defaults.lambdaMargin()),
            Integer.parseInt(
                env.getOrDefault(
                    "LAKE_WORKER_MAX_ATTEMPTS", Integer.toString(defaults.maxAttempts()))),
            seconds(env, "LAKE_WORKER_RETRY_DELAY_SECONDS", defaults.retryDelay()),
            env.getOrDefault("LAKE_RESULT_PREFIX", DurableConfig.DEFAULT_RESULT_PREFIX),
            ResultConfig.defaults());
    KmsKeyService keys =
        new KmsKeyService(
            clients.kms(),
            aws.kmsKeyId(),
            new S3ObjectStore(
                clients.s3(),
                aws.bucket(),
                env.getOrDefault("LAKE_KEY_RING_PREFIX", "ticket-keys")),
            KmsKeyConfig.defaults(),
            Clock.systemUTC(),
            true);
    BufferAllocator allocator = new RootAllocator();
    Path temp = Path.of(env.getOrDefault("LAKE_ENGINE_TEMP", "/tmp/lake-engine"));
    List<TableReader> readers = new ArrayList<>(List.of(new LanceTableReader(allocator)));
    List<TableResolver> resolvers =
        new ArrayList<>(
            List.of(
                new LanceTableResolver(
                    new FileRegistry(Path.of(required(env, "LAKE_REGISTRY_FILE"))),
                    allocator,
                    Duration.ofSeconds(5))));
    iceberg(env)
        .ifPresent(
            federated -> {
              // lives as long as the process (the Lambda container or bin/lake worker)
              IcebergFederation federation = IcebergFederation.connect(federated, allocator);
              resolvers.add(federation.resolver());
              readers.add(federation.reader());
            });
    DuckDbQueryEngine engine = new DuckDbQueryEngine(EngineConfig.defaults(temp), readers);
    Catalogs catalogs = new Catalogs(resolvers);
    JobProcessor processor =
        new JobProcessor(
            new DynamoDbJobStore(clients.dynamo(), aws.jobTable()),
            new S3ObjectStore(clients.s3(), aws.bucket(), ""),
            new EnvelopeSealer(keys),
            catalogs,
            engine,
            allocator,
            config,
            Clock.systemUTC(),
            workerId());
    return new WorkerRuntime(processor, new SqsJobQueue(clients.sqs(), aws.queueUrl()), config);
  }

  /**
   * The Iceberg REST catalog the front door federates, from {@code LAKE_ICEBERG_REST} and {@code
   * LAKE_ICEBERG_ALLOW} (+ optional {@code LAKE_ICEBERG_WAREHOUSE}); empty when REST is unset. The
   * allowlist must equal the front door's {@code --iceberg-allow}.
   */
  static Optional<IcebergConfig> iceberg(Map<String, String> env) {
    String rest = blankToNull(env.get("LAKE_ICEBERG_REST"));
    String allow = blankToNull(env.get("LAKE_ICEBERG_ALLOW"));
    String warehouse = blankToNull(env.get("LAKE_ICEBERG_WAREHOUSE"));
    if (rest == null) {
      if (allow != null || warehouse != null) {
        throw new IllegalArgumentException(
            "LAKE_ICEBERG_ALLOW/LAKE_ICEBERG_WAREHOUSE need LAKE_ICEBERG_REST");
      }
      return Optional.empty();
    }
    if (allow == null) {
      throw new IllegalArgumentException(
          "LAKE_ICEBERG_REST needs LAKE_ICEBERG_ALLOW: name the namespaces or tables to read");
    }
    return Optional.of(IcebergConfig.fromFlags(rest, warehouse, allow));
  }

  private static String blankToNull(String value) {
    return value == null || value.isBlank() ? null : value.trim();
  }

  private static Duration seconds(Map<String, String> env, String name, Duration fallback) {
    String v = env.get(name);
    return v == null || v.isBlank() ? fallback : Duration.ofSeconds(Long.parseLong(v.trim()));
  }

  private static String required(Map<String, String> env, String name) {
    String v = env.get(name);
    if (v == null || v.isBlank()) {
      throw new IllegalArgumentException("environment variable " + name + " is required");
    }
    return v;
  }

  private static String workerId() {
    String host;
    try {
      host = InetAddress.getLocalHost().getHostName();
    } catch (java.io.IOException e) {
      host = "worker";
    }
    return (host + "-" + UUID.randomUUID().toString().substring(0, 8))
        .replaceAll("[^A-Za-z0-9_.-]", "");
  }
}
