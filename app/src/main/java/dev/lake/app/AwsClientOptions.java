package dev.lake.app;

import dev.lake.aws.AwsConfig;
import java.net.URI;
import java.time.Duration;
import java.util.Optional;
import picocli.CommandLine.Option;

/**
 * How to reach AWS (region, endpoint, timeout): all that the table commands need, and part of
 * {@link AwsOptions} for the processes that also use the durable tier's resources.
 */
public final class AwsClientOptions {
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

  /** These settings with the four durable-tier resources given. */
  AwsConfig config(String resultBucket, String jobTable, String jobQueueUrl, String kmsKeyId) {
    return new AwsConfig(
        region,
        Optional.ofNullable(endpoint),
        resultBucket,
        jobTable,
        jobQueueUrl,
        kmsKeyId,
        Duration.ofMillis(callTimeoutMs));
  }

  /** Only what reaching AWS needs, for processes that touch no durable resource. */
  public AwsConfig clientsOnly() {
    String none = "-";
    return config(none, none, none, none);
  }
}
