package dev.lake.durable;

import dev.lake.aws.DynamoDbJobStore;
import dev.lake.aws.KmsKeyConfig;
import dev.lake.aws.KmsKeyService;
import dev.lake.aws.S3ObjectStore;
import dev.lake.aws.SqsJobQueue;
import dev.lake.aws.testing.AwsTestKit;
import java.time.Clock;
import java.time.Duration;
import java.util.UUID;
import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;
import software.amazon.awssdk.http.urlconnection.UrlConnectionHttpClient;

/**
 * The AWS adapters under test against moto: DynamoDB, SQS, S3, KMS. Register it in a static field
 * of a test class that is also {@code @ExtendWith(MotoExtension.class)} (class-level extensions run
 * first, so the emulator is up): it opens one set of resources and clients for the class and closes
 * them after it; {@link #create} gives each test a fresh queue and object prefix, while the job
 * table is shared (job ids differ).
 */
final class AwsPorts implements BeforeAllCallback, AfterAllCallback {
  private AwsTestKit.Resources aws;

  @Override
  public void beforeAll(ExtensionContext context) {
    aws = AwsTestKit.create(Duration.ofSeconds(30), UrlConnectionHttpClient.builder().build());
  }

  @Override
  public void afterAll(ExtensionContext context) {
    aws.clients().close();
  }

  WorkerFixture.Ports create() {
    String queueUrl =
        aws.clients().sqs().createQueue(b -> b.queueName("w-" + UUID.randomUUID())).queueUrl();
    String prefix = "t-" + UUID.randomUUID();
    return new WorkerFixture.Ports(
        new DynamoDbJobStore(aws.clients().dynamo(), aws.config().jobTable()),
        new SqsJobQueue(aws.clients().sqs(), queueUrl),
        new S3ObjectStore(aws.clients().s3(), aws.config().bucket(), prefix),
        new KmsKeyService(
            aws.clients().kms(),
            aws.config().kmsKeyId(),
            new S3ObjectStore(aws.clients().s3(), aws.config().bucket(), prefix + "-keys"),
            KmsKeyConfig.defaults(),
            Clock.systemUTC(),
            false));
  }
}
