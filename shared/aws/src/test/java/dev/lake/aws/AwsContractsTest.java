package dev.lake.aws;

import dev.lake.aws.testing.AwsTestKit;
import dev.lake.aws.testing.MotoExtension;
import dev.lake.core.KeyService;
import dev.lake.core.ObjectStore;
import dev.lake.core.Registry;
import dev.lake.core.TableRef;
import dev.lake.core.contract.JobQueueContract;
import dev.lake.core.contract.JobStoreContract;
import dev.lake.core.contract.KeyServiceContract;
import dev.lake.core.contract.ObjectStoreContract;
import dev.lake.core.contract.RegistryContract;
import dev.lake.core.job.JobQueue;
import dev.lake.core.job.JobStore;
import java.time.Clock;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.extension.ExtendWith;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

/** The port contracts against the AWS adapters on moto (the same suites the embedded ones pass). */
@ExtendWith(MotoExtension.class)
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class AwsContractsTest {
  private AwsTestKit.Resources aws;

  @BeforeAll
  void createResources() {
    aws = AwsTestKit.create();
  }

  @AfterAll
  void closeClients() {
    aws.clients().close();
  }

  @Nested
  class DynamoDbJobStoreContract extends JobStoreContract {
    @Override
    protected JobStore store() {
      return new DynamoDbJobStore(aws.clients().dynamo(), aws.config().jobTable());
    }
  }

  @Nested
  class SqsJobQueueContract extends JobQueueContract {
    @Override
    protected JobQueue queue() {
      // a fresh queue per test: SQS has no cheap "empty" and purge is rate-limited
      AwsTestKit.Resources fresh = AwsTestKit.create();
      return new SqsJobQueue(fresh.clients().sqs(), fresh.config().queueUrl());
    }
  }

  @Nested
  class S3ObjectStoreContract extends ObjectStoreContract {
    @Override
    protected ObjectStore store() {
      // 5 MiB parts and 2-key list pages so multipart upload and paging are exercised
      return new S3ObjectStore(
          aws.clients().s3(),
          aws.config().bucket(),
          "t-" + UUID.randomUUID(),
          S3ObjectStore.MIN_PART_SIZE,
          2);
    }

    @Override
    protected int largeObjectBytes() {
      return 11 << 20;
    }
  }

  @Nested
  class KmsKeyServiceContract extends KeyServiceContract {
    private final String prefix = "keys-" + UUID.randomUUID();

    @Override
    protected KeyService replica() {
      return new KmsKeyService(
          aws.clients().kms(),
          aws.config().kmsKeyId(),
          new S3ObjectStore(aws.clients().s3(), aws.config().bucket(), prefix),
          KmsKeyConfig.defaults(),
          Clock.systemUTC(),
          false);
    }

    @Override
    protected KeyService rotate(KeyService replica) {
      ((KmsKeyService) replica).rotate();
      return replica;
    }
  }

  @Nested
  class DynamoDbRegistryContract extends RegistryContract {
    private String table;

    @Override
    protected Registry registry() {
      table = "lake-registry-" + UUID.randomUUID();
      DynamoDbRegistry.createTable(aws.clients().dynamo(), table);
      return new DynamoDbRegistry(aws.clients().dynamo(), table);
    }

    @Override
    protected Registry sameRegistry(Registry registry) {
      return registry; // stateless: every call reads the table
    }

    @Override
    protected String readAsLegacy(Registry registry, TableRef ref) {
      // DynamoDbRegistry's fromItem before format tags: item.get("location").s()
      return aws.clients()
          .dynamo()
          .getItem(
              b ->
                  b.tableName(table)
                      .consistentRead(true)
                      .key(Map.of("name", AttributeValue.fromS(ref.toString()))))
          .item()
          .get("location")
          .s();
    }

    @Override
    protected void writeLegacy(Registry registry, TableRef ref, String location) {
      aws.clients()
          .dynamo()
          .putItem(
              b ->
                  b.tableName(table)
                      .item(
                          Map.of(
                              "name", AttributeValue.fromS(ref.toString()),
                              "location", AttributeValue.fromS(location),
                              "incarnation", AttributeValue.fromS("inc-legacy"),
                              "registeredAt", AttributeValue.fromN("1"))));
    }
  }
}
