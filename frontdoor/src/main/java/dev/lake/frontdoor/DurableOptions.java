package dev.lake.frontdoor;

import dev.lake.aws.AwsConfig;
import java.net.URI;
import java.util.Optional;
import picocli.CommandLine.Option;

/**
 * The {@code --durable} flags of {@code serve}: the durable result tier is off unless {@code
 * --durable aws} names the AWS resources (the same ones the Lambda worker's environment names).
 */
final class DurableOptions {
  enum Mode {
    off,
    aws
  }

  @Option(
      names = "--durable",
      defaultValue = "off",
      description = "Durable result tier (PollFlightInfo, part downloads): off or aws.")
  Mode mode;

  @Option(names = "--result-bucket", description = "S3 bucket of results and the ticket-key ring.")
  String resultBucket;

  @Option(names = "--job-table", description = "DynamoDB job table.")
  String jobTable;

  @Option(names = "--job-queue-url", description = "SQS job queue URL.")
  String jobQueueUrl;

  @Option(names = "--kms-key-id", description = "KMS key wrapping the ticket data keys.")
  String kmsKeyId;

  @Option(names = "--aws-endpoint", description = "One endpoint override (moto, LocalStack).")
  URI awsEndpoint;

  @Option(names = "--aws-region", defaultValue = "us-east-1", description = "AWS region.")
  String awsRegion;

  @Option(
      names = "--durable-workers",
      defaultValue = "0",
      description = "In-process workers polling the job queue (0: Lambda or bin/lake worker).")
  int workers;

  /** The AWS resources, or empty when the tier is off. */
  Optional<AwsConfig> aws() {
    if (mode != Mode.aws) {
      if (resultBucket != null || jobTable != null || jobQueueUrl != null || kmsKeyId != null) {
        throw new IllegalArgumentException(
            "--result-bucket/--job-table/--job-queue-url/--kms-key-id need --durable aws");
      }
      return Optional.empty();
    }
    if (resultBucket == null || jobTable == null || jobQueueUrl == null || kmsKeyId == null) {
      throw new IllegalArgumentException(
          "--durable aws needs --result-bucket, --job-table, --job-queue-url and --kms-key-id");
    }
    return Optional.of(
        new AwsConfig(
            awsRegion,
            Optional.ofNullable(awsEndpoint),
            resultBucket,
            jobTable,
            jobQueueUrl,
            kmsKeyId,
            AwsConfig.DEFAULT_CALL_TIMEOUT));
  }

  DurableTierConfig config() {
    return DurableTierConfig.defaults().withWorkers(workers);
  }
}
