package dev.lake.core;

import static java.util.Objects.requireNonNull;

import java.time.Duration;

/**
 * The names and settings of one AWS deployment's resources, defined once for the CDK stack and
 * {@code bin/lake aws-local} (which creates them on an emulator). Each name is also the value of
 * the {@code LAKE_*} variable a process reads it from (see docs/operations-config.md).
 *
 * @param bucket results, the KMS-wrapped ticket-key ring and (under {@link #lancePrefix}) Lance
 *     datasets ({@code LAKE_RESULT_BUCKET})
 * @param lancePrefix object-key prefix of Lance datasets in {@code bucket}
 * @param jobTable DynamoDB job table, partition key {@code id} (S), TTL attribute {@code ttl}
 *     ({@code LAKE_JOB_TABLE})
 * @param registryTable DynamoDB table registry, partition key {@code name} (S) ({@code
 *     LAKE_REGISTRY_TABLE})
 * @param queue SQS job queue name ({@code LAKE_JOB_QUEUE_URL} is its URL)
 * @param deadLetterQueue where a job message goes after {@code maxReceiveCount} deliveries
 * @param maxReceiveCount deliveries before the dead-letter queue (a job's own attempts are bounded
 *     by the worker; this only catches poison messages)
 * @param visibilityTimeout the queue's default visibility timeout (workers extend it while a job
 *     runs)
 * @param kmsKeyAlias alias of the KMS key wrapping ticket data keys ({@code LAKE_KMS_KEY_ID} may
 *     name the alias or the key id)
 */
public record DeploymentNames(
    String bucket,
    String lancePrefix,
    String jobTable,
    String registryTable,
    String queue,
    String deadLetterQueue,
    int maxReceiveCount,
    Duration visibilityTimeout,
    String kmsKeyAlias) {
  public DeploymentNames {
    requireNonNull(bucket, "bucket is null");
    requireNonNull(lancePrefix, "lancePrefix is null");
    requireNonNull(jobTable, "jobTable is null");
    requireNonNull(registryTable, "registryTable is null");
    requireNonNull(queue, "queue is null");
    requireNonNull(deadLetterQueue, "deadLetterQueue is null");
    requireNonNull(visibilityTimeout, "visibilityTimeout is null");
    requireNonNull(kmsKeyAlias, "kmsKeyAlias is null");
    Bounds.check("maxReceiveCount", maxReceiveCount, 1, 1000);
    Bounds.check("visibilityTimeout", visibilityTimeout, Duration.ZERO, Duration.ofHours(12));
    if (!kmsKeyAlias.startsWith("alias/")) {
      throw new IllegalArgumentException("kmsKeyAlias must start with alias/: " + kmsKeyAlias);
    }
  }

  /** The names of a deployment called {@code lake} (suffix them per stage if needed). */
  public static DeploymentNames defaults() {
    return new DeploymentNames(
        "lake-data",
        "lance",
        "lake-jobs",
        "lake-registry",
        "lake-jobs",
        "lake-jobs-dlq",
        5,
        Duration.ofMinutes(2),
        "alias/lake-tickets");
  }

  /** The S3 location of Lance datasets: {@code s3://<bucket>/<lancePrefix>}. */
  public String lanceBase() {
    return "s3://" + bucket + "/" + lancePrefix;
  }
}
