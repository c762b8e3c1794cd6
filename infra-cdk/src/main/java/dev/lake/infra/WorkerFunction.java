package dev.lake.infra;

import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import software.amazon.awscdk.Duration;
import software.amazon.awscdk.Size;
import software.amazon.awscdk.services.ecr.IRepository;
import software.amazon.awscdk.services.lambda.Architecture;
import software.amazon.awscdk.services.lambda.DockerImageCode;
import software.amazon.awscdk.services.lambda.DockerImageFunction;
import software.amazon.awscdk.services.lambda.EcrImageCodeProps;
import software.amazon.awscdk.services.lambda.eventsources.SqsEventSource;
import software.amazon.awscdk.services.logs.LogGroup;
import software.amazon.awscdk.services.secretsmanager.ISecret;
import software.constructs.Construct;

/**
 * The worker: the image built from {@code worker-lambda/Dockerfile}, pulled from ECR by tag (so
 * synthesis needs neither Docker nor an account), fed by the job queue one job per invocation with
 * partial batch responses. The event source's maximum concurrency stays below the reserved
 * concurrency so the queue never throttles the function; the timeout exceeds the worker's absolute
 * deadline so a job ends by its own deadline, not by the Lambda runtime killing it.
 */
final class WorkerFunction extends Construct {
  final DockerImageFunction function;
  final LogGroup logs;

  WorkerFunction(
      Construct scope,
      String id,
      LakeSettings settings,
      LakeData data,
      IRepository repository,
      String imageTag,
      Optional<ISecret> icebergOAuth2,
      Map<String, String> sharedEnvironment) {
    super(scope, id);
    logs = LakeData.logGroup(this, "Logs");
    Map<String, String> environment = new TreeMap<>(sharedEnvironment);
    environment.put(
        LakeEnv.WORKER_MAX_EXECUTION_SECONDS,
        Integer.toString(settings.workerMaxExecutionSeconds()));
    environment.put(
        LakeEnv.WORKER_LAMBDA_MARGIN_SECONDS, Integer.toString(settings.workerMarginSeconds()));
    // durable fan-out: a statement's splits run side by side within the event source's
    // concurrency, which keeps two deliveries free (the parent's checks, other tenants' jobs)
    environment.put(
        LakeEnv.WORKER_MAX_FAN_OUT,
        Integer.toString(Math.max(1, settings.workerMaxConcurrency() - 2)));
    environment.put(LakeEnv.SPILL_DIR, "/tmp/lake-spill");
    // one job at a time (batch size 1): one engine process of a quarter of the function's memory,
    // capped at half of it (the worker's own JVM keeps its default quarter heap; a spare ~0.3 GiB)
    environment.put(LakeEnv.ENGINE_MEMORY_MB, Integer.toString(settings.workerMemoryMiB() / 4));
    environment.put(LakeEnv.ENGINE_MEMORY_POOLS, "1");
    environment.put(
        LakeEnv.ENGINE_PROCESS_CEILING_MB, Integer.toString(settings.workerMemoryMiB() / 2));
    // /tmp is the function's 4 GiB ephemeral storage, shared with spill: a quarter for Iceberg
    // files
    environment.put(LakeEnv.ICEBERG_FILE_CACHE_DIR, "/tmp/lake-iceberg-files");
    environment.put(LakeEnv.ICEBERG_FILE_CACHE_MB, "1024");
    // Lambda takes no secret references: CloudFormation resolves the credential at deployment
    // into the function's configuration (readable with lambda:GetFunctionConfiguration)
    icebergOAuth2.ifPresent(
        secret ->
            environment.put(
                LakeEnv.ICEBERG_OAUTH2_CREDENTIAL, secret.getSecretValue().unsafeUnwrap()));
    function =
        DockerImageFunction.Builder.create(this, "Function")
            .description("lake durable-tier worker (SQS job messages in, result parts to S3)")
            .code(
                DockerImageCode.fromEcr(
                    repository, EcrImageCodeProps.builder().tagOrDigest(imageTag).build()))
            .architecture(Architecture.X86_64)
            .memorySize(settings.workerMemoryMiB())
            .ephemeralStorageSize(Size.gibibytes(4))
            .timeout(Duration.seconds(settings.workerTimeoutSeconds()))
            .reservedConcurrentExecutions(settings.workerReservedConcurrency())
            .environment(environment)
            .logGroup(logs)
            .build();
    function.addEventSource(
        SqsEventSource.Builder.create(data.queue)
            .batchSize(settings.workerBatchSize())
            .reportBatchItemFailures(true)
            .maxConcurrency(settings.workerMaxConcurrency())
            .build());
  }
}
