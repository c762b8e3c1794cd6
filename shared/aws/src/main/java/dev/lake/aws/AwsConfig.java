package dev.lake.aws;

import static java.util.Objects.requireNonNull;

import dev.lake.core.Bounds;
import java.net.URI;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;

/**
 * Where lake's AWS resources are, built once per process from environment variables (set by the CDK
 * stack, or by {@code localstack/start-moto.sh} for emulators).
 *
 * @param region {@code LAKE_AWS_REGION}, else {@code AWS_REGION}, else {@code us-east-1}
 * @param endpoint {@code LAKE_AWS_ENDPOINT}: one endpoint for every service (moto, LocalStack)
 * @param bucket {@code LAKE_RESULT_BUCKET}: results and the shared ticket-key ring
 * @param jobTable {@code LAKE_JOB_TABLE}: the DynamoDB job table (partition key {@code id}, S)
 * @param queueUrl {@code LAKE_JOB_QUEUE_URL}: the SQS job queue
 * @param kmsKeyId {@code LAKE_KMS_KEY_ID}: the KMS key that wraps ticket data keys
 * @param apiCallTimeout {@code LAKE_AWS_CALL_TIMEOUT_MS}: total time per SDK call incl. retries
 *     (default 10 s, 1 s - 5 min); SQS long polls add their wait on top
 */
public record AwsConfig(
    String region,
    Optional<URI> endpoint,
    String bucket,
    String jobTable,
    String queueUrl,
    String kmsKeyId,
    Duration apiCallTimeout) {
  public static final Duration DEFAULT_CALL_TIMEOUT = Duration.ofSeconds(10);
  static final Duration MIN_CALL_TIMEOUT = Duration.ofSeconds(1);
  static final Duration MAX_CALL_TIMEOUT = Duration.ofMinutes(5);

  public AwsConfig {
    requireNonNull(region, "region is null");
    requireNonNull(endpoint, "endpoint is null");
    requireNonNull(bucket, "bucket is null");
    requireNonNull(jobTable, "jobTable is null");
    requireNonNull(queueUrl, "queueUrl is null");
    requireNonNull(kmsKeyId, "kmsKeyId is null");
    requireNonNull(apiCallTimeout, "apiCallTimeout is null");
    if (region.isBlank()) {
      throw new IllegalArgumentException("region is blank");
    }
    Bounds.check(
        "apiCallTimeout (LAKE_AWS_CALL_TIMEOUT_MS)",
        apiCallTimeout,
        MIN_CALL_TIMEOUT,
        MAX_CALL_TIMEOUT);
  }

  /** Reads the variables documented on the record; missing required ones fail with their name. */
  public static AwsConfig fromEnv(Map<String, String> env) {
    String region =
        Optional.ofNullable(env.get("LAKE_AWS_REGION"))
            .or(() -> Optional.ofNullable(env.get("AWS_REGION")))
            .orElse("us-east-1");
    return new AwsConfig(
        region,
        Optional.ofNullable(env.get("LAKE_AWS_ENDPOINT"))
            .filter(s -> !s.isBlank())
            .map(URI::create),
        required(env, "LAKE_RESULT_BUCKET"),
        required(env, "LAKE_JOB_TABLE"),
        required(env, "LAKE_JOB_QUEUE_URL"),
        required(env, "LAKE_KMS_KEY_ID"),
        Optional.ofNullable(env.get("LAKE_AWS_CALL_TIMEOUT_MS"))
            .map(s -> Duration.ofMillis(millis("LAKE_AWS_CALL_TIMEOUT_MS", s)))
            .orElse(DEFAULT_CALL_TIMEOUT));
  }

  private static long millis(String name, String value) {
    try {
      return Long.parseLong(value.trim());
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException(name + " must be a number of milliseconds: " + value);
    }
  }

  private static String required(Map<String, String> env, String name) {
    String value = env.get(name);
    if (value == null || value.isBlank()) {
      throw new IllegalArgumentException("environment variable " + name + " is required");
    }
    return value;
  }
}
