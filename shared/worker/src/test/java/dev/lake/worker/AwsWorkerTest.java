package dev.lake.worker;

import dev.lake.aws.DynamoDbJobStore;
import dev.lake.aws.KmsKeyConfig;
import dev.lake.aws.KmsKeyService;
import dev.lake.aws.S3ObjectStore;
import dev.lake.aws.SqsJobQueue;
import dev.lake.aws.testing.AwsTestKit;
import dev.lake.aws.testing.MotoExtension;
import java.time.Clock;
import java.time.Duration;
import java.util.UUID;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.extension.ExtendWith;
import software.amazon.awssdk.http.urlconnection.UrlConnectionHttpClient;

/** Worker scenarios on the AWS adapters against moto: DynamoDB, SQS, S3, KMS. */
@ExtendWith(MotoExtension.class)
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class AwsWorkerTest extends WorkerScenarios {
  private AwsTestKit.Resources aws;

  @BeforeAll
  void createResources() {
    aws = AwsTestKit.create(Duration.ofSeconds(30), UrlConnectionHttpClient.builder().build());
  }

  @AfterAll
  void closeClients() {
    aws.clients().close();
  }

  @Override
  protected Ports ports() {
    // a fresh queue and object prefix per test; the job table is shared (job ids differ)
    String queueUrl =
        aws.clients().sqs().createQueue(b -> b.queueName("w-" + UUID.randomUUID())).queueUrl();
    String prefix = "t-" + UUID.randomUUID();
    return new Ports(
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
