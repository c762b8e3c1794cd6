package dev.lake.app;

import dev.lake.aws.AwsConfig;
import dev.lake.core.job.ResultLayout;
import java.net.URI;
import java.time.Duration;
import java.util.Optional;
import picocli.CommandLine.Option;

/**
 * Where a deployment's AWS resources are: the same settings for the front door ({@code serve
 * --durable aws}), {@code bin/lake worker}, the Lambda handler and {@code table register}.
 */
public final class AwsOptions {
  @Option(
      names = "--aws-region",
      defaultValue = "${env:AWS_REGION:-us-east-1}",
      description = "AWS region (default: AWS_REGION, else us-east-1).")
  String region;

  @Option(
      names = "--aws-endpoint",
      description = "One endpoint override for every AWS service (moto, LocalStack).")
  URI endpoint;

  @Option(
      names = "--aws-call-timeout-ms",
      defaultValue = "10000",
      description = "Total time per AWS SDK call including retries (1,000 - 300,000 ms).")
  long callTimeoutMs;

  @Option(names = "--result-bucket", description = "S3 bucket of results and the ticket-key ring.")
  String resultBucket;

  @Option(names = "--job-table", description = "DynamoDB job table.")
  String jobTable;

  @Option(names = "--job-queue-url", description = "SQS job queue URL.")
  String jobQueueUrl;

  @Option(names = "--kms-key-id", description = "KMS key wrapping the ticket data keys.")
  String kmsKeyId;

  @Option(
      names = "--key-ring-prefix",
      defaultValue = "ticket-keys",
      description = "Object-key prefix of the KMS-wrapped ticket keys in the result bucket.")
  String keyRingPrefix;

  @Option(
      names = "--result-prefix",
      defaultValue = ResultLayout.DEFAULT_PREFIX,
      description =
          "Object-key prefix of durable results in the result bucket (front door and workers:"
              + " one setting).")
  String resultPrefix;

  /** Whether any durable-tier resource is named. */
  public boolean namesDurableResources() {
    return resultBucket != null || jobTable != null || jobQueueUrl != null || kmsKeyId != null;
  }

  /** The durable tier's resources, all four required. */
  public AwsConfig durable() {
    if (resultBucket == null || jobTable == null || jobQueueUrl == null || kmsKeyId == null) {
      throw new IllegalArgumentException(
          "the AWS durable tier needs --result-bucket, --job-table, --job-queue-url and"
              + " --kms-key-id (or LAKE_RESULT_BUCKET, LAKE_JOB_TABLE, LAKE_JOB_QUEUE_URL,"
              + " LAKE_KMS_KEY_ID)");
    }
    return new AwsConfig(
        region,
        Optional.ofNullable(endpoint),
        resultBucket,
        jobTable,
        jobQueueUrl,
        kmsKeyId,
        Duration.ofMillis(callTimeoutMs));
  }

  /**
   * Only what reaching AWS needs (region, endpoint, timeout), for processes that touch no durable
   * resource (e.g. {@code table register} against the DynamoDB registry).
   */
  public AwsConfig clientsOnly() {
    String none = "-";
    return new AwsConfig(
        region,
        Optional.ofNullable(endpoint),
        Optional.ofNullable(resultBucket).orElse(none),
        Optional.ofNullable(jobTable).orElse(none),
        Optional.ofNullable(jobQueueUrl).orElse(none),
        Optional.ofNullable(kmsKeyId).orElse(none),
        Duration.ofMillis(callTimeoutMs));
  }

  public String keyRingPrefix() {
    return keyRingPrefix;
  }

  /** Where durable results live: {@code --result-prefix}, the default bounds. */
  public ResultLayout resultLayout() {
    return ResultLayout.defaults().withPrefix(resultPrefix);
  }
}
