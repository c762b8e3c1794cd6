package dev.lake.aws.testing;

import dev.lake.aws.AwsClients;
import dev.lake.aws.AwsConfig;
import dev.lake.aws.DynamoDbJobStore;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import software.amazon.awssdk.http.SdkHttpClient;
import software.amazon.awssdk.http.urlconnection.UrlConnectionHttpClient;
import software.amazon.awssdk.services.sqs.model.QueueAttributeName;

/**
 * Fresh, uniquely named AWS resources on the emulator of {@link MotoExtension}: a bucket, a job
 * table, a queue (1 s visibility timeout unless given) and a KMS key.
 */
public final class AwsTestKit {
  private AwsTestKit() {}

  /** Resources and the process-wide clients that reach them. */
  public record Resources(AwsConfig config, AwsClients clients) {}

  public static Resources create() {
    return create(Duration.ofSeconds(1), UrlConnectionHttpClient.builder().build());
  }

  public static Resources create(Duration visibility, SdkHttpClient http) {
    String suffix = UUID.randomUUID().toString().substring(0, 8);
    AwsConfig bootstrap =
        new AwsConfig(
            "us-east-1",
            Optional.of(MotoExtension.endpoint()),
            "lake-test-" + suffix,
            "lake-jobs-" + suffix,
            "unset",
            "unset",
            Duration.ofSeconds(10));
    AwsClients clients = new AwsClients(bootstrap, http);
    clients.s3().createBucket(b -> b.bucket(bootstrap.bucket()));
    DynamoDbJobStore.createTable(clients.dynamo(), bootstrap.jobTable());
    String queueUrl =
        clients
            .sqs()
            .createQueue(
                b ->
                    b.queueName("lake-jobs-" + suffix)
                        .attributes(
                            Map.of(
                                QueueAttributeName.VISIBILITY_TIMEOUT,
                                Long.toString(visibility.toSeconds()))))
            .queueUrl();
    String keyId = clients.kms().createKey(b -> b.description("lake test")).keyMetadata().keyId();
    AwsConfig config =
        new AwsConfig(
            bootstrap.region(),
            bootstrap.endpoint(),
            bootstrap.bucket(),
            bootstrap.jobTable(),
            queueUrl,
            keyId,
            bootstrap.apiCallTimeout());
    return new Resources(config, clients);
  }

  /** The environment a worker process would see for these resources. */
  public static Map<String, String> env(AwsConfig config) {
    return Map.of(
        "LAKE_AWS_ENDPOINT", config.endpoint().orElseThrow().toString(),
        "LAKE_AWS_REGION", config.region(),
        "LAKE_RESULT_BUCKET", config.bucket(),
        "LAKE_JOB_TABLE", config.jobTable(),
        "LAKE_JOB_QUEUE_URL", config.queueUrl(),
        "LAKE_KMS_KEY_ID", config.kmsKeyId());
  }
}
