package dev.lake.app;

import dev.lake.aws.AwsConfig;
import dev.lake.core.job.ResultLayout;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * Where a deployment's AWS resources are: the same settings for the front door ({@code serve
 * --durable aws}), {@code bin/lake worker} and the Lambda handler ({@code table} commands take only
 * {@link AwsClientOptions}).
 */
public final class AwsOptions {
  @Mixin AwsClientOptions client;

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
    return client.config(resultBucket, jobTable, jobQueueUrl, kmsKeyId);
  }

  /**
   * Only what reaching AWS needs (region, endpoint, timeout), for processes that touch no durable
   * resource (e.g. {@code serve} with the DynamoDB registry but no durable tier).
   */
  public AwsConfig clientsOnly() {
    return client.clientsOnly();
  }

  public String keyRingPrefix() {
    return keyRingPrefix;
  }

  /** Where durable results live: {@code --result-prefix}, the default bounds. */
  public ResultLayout resultLayout() {
    return ResultLayout.defaults().withPrefix(resultPrefix);
  }
}
