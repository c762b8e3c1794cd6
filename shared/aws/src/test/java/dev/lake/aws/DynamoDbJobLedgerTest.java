package dev.lake.aws;

import static org.assertj.core.api.Assertions.assertThat;

import dev.lake.aws.testing.AwsTestKit;
import dev.lake.aws.testing.MotoExtension;
import dev.lake.core.ErrorCode;
import dev.lake.core.contract.JobStoreContract;
import dev.lake.core.job.Job;
import dev.lake.core.job.JobLimits;
import dev.lake.core.job.JobState;
import dev.lake.core.job.JobStore;
import java.time.Clock;
import java.time.ZoneOffset;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.extension.ExtendWith;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

/**
 * A job record reaped without a terminal write (DynamoDB TTL), or expired unfinished, does not keep
 * its place.
 */
@ExtendWith(MotoExtension.class)
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class DynamoDbJobLedgerTest {
  private AwsTestKit.Resources aws;

  @BeforeAll
  void setUp() {
    aws = AwsTestKit.create();
  }

  @AfterAll
  void tearDown() {
    aws.clients().close();
  }

  @Test
  void aRefusedWrite_prunesAReapedJob_andThenFits() {
    // GIVEN a tenant at its bound of one, whose only job record TTL then deleted silently
    DynamoDbJobStore store = new DynamoDbJobStore(aws.clients().dynamo(), aws.config().jobTable());
    String tenant = "t" + UUID.randomUUID().toString().substring(0, 8);
    Job reaped = job(tenant);
    store.createIfAbsent(reaped, JobLimits.active(1));
    aws.clients()
        .dynamo()
        .deleteItem(
            b ->
                b.tableName(aws.config().jobTable())
                    .key(Map.of("id", AttributeValue.fromS(reaped.id()))));
    assertThat(store.usage(tenant).active()).isEqualTo(1);
    // WHEN the tenant submits again
    Job next = job(tenant);
    JobStore.CreateResult result = store.createIfAbsent(next, JobLimits.active(1));
    // THEN the stale place was pruned and the new job counted instead
    assertThat(result).isEqualTo(new JobStore.CreateResult.Created(next));
    assertThat(store.usage(tenant).active()).isEqualTo(1);
  }

  @Test
  void aLiveJob_isNeverPruned() {
    // GIVEN a tenant at its bound of one with a live PENDING job
    DynamoDbJobStore store = new DynamoDbJobStore(aws.clients().dynamo(), aws.config().jobTable());
    String tenant = "t" + UUID.randomUUID().toString().substring(0, 8);
    store.createIfAbsent(job(tenant), JobLimits.active(1));
    // WHEN another job is created THEN it is refused, and the live one still counts
    assertThat(store.createIfAbsent(job(tenant), JobLimits.active(1)))
        .isInstanceOf(JobStore.CreateResult.Refused.class);
    assertThat(store.usage(tenant).active()).isEqualTo(1);
  }

  @Test
  void aRefusedWrite_endsAnExpiredUnfinishedJob_releasingItsPlace_andThenFits() {
    // GIVEN a tenant at its bound of one whose only job expired unfinished (its message went to
    // the dead-letter queue and nothing wrote its end), seen by a store whose clock is past expiry
    String tenant = "t" + UUID.randomUUID().toString().substring(0, 8);
    Job stuck = job(tenant);
    new DynamoDbJobStore(aws.clients().dynamo(), aws.config().jobTable())
        .createIfAbsent(stuck, JobLimits.active(1));
    DynamoDbJobStore store =
        new DynamoDbJobStore(
            aws.clients().dynamo(),
            aws.config().jobTable(),
            Clock.fixed(stuck.expiresAt().plusSeconds(1), ZoneOffset.UTC));
    // WHEN the tenant submits again
    Job next = job(tenant);
    JobStore.CreateResult result = store.createIfAbsent(next, JobLimits.active(1));
    // THEN the expired job was ended (not merely dropped from the set) and the new one counted
    assertThat(result).isEqualTo(new JobStore.CreateResult.Created(next));
    Job ended = store.find(stuck.id()).orElseThrow();
    assertThat(ended.state()).isEqualTo(JobState.FAILED);
    assertThat(ended.failure().orElseThrow().code()).isEqualTo(ErrorCode.DEADLINE_EXCEEDED);
    assertThat(store.usage(tenant).active()).isEqualTo(1);
  }

  private static Job job(String tenant) {
    return JobStoreContract.newJob(tenant);
  }
}
