package dev.lake.aws;

import static org.assertj.core.api.Assertions.assertThat;

import dev.lake.aws.testing.AwsTestKit;
import dev.lake.aws.testing.LosingResponsesHttpClient;
import dev.lake.aws.testing.MotoExtension;
import dev.lake.core.job.Job;
import dev.lake.core.job.JobStore;
import java.time.Duration;
import java.time.Instant;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.extension.ExtendWith;
import software.amazon.awssdk.http.urlconnection.UrlConnectionHttpClient;

/** "Condition failed after an SDK retry" is settled by ALL_OLD, not mistaken for a lost race. */
@ExtendWith(MotoExtension.class)
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class DynamoDbJobStoreOutcomeTest {
  private static final Instant T0 = Instant.parse("2030-01-01T00:00:00Z");
  private final LosingResponsesHttpClient http =
      new LosingResponsesHttpClient(UrlConnectionHttpClient.builder().build());
  private AwsTestKit.Resources aws;
  private DynamoDbJobStore store;

  @BeforeAll
  void setUp() {
    aws = AwsTestKit.create(Duration.ofSeconds(30), http);
    store = new DynamoDbJobStore(aws.clients().dynamo(), aws.config().jobTable());
  }

  @AfterAll
  void tearDown() {
    aws.clients().close();
  }

  private static Job job(String id) {
    return Job.pending(id, "acme", "alice", "fp", new byte[] {1}, T0, T0.plusSeconds(600));
  }

  @Test
  void compareAndSet_whoseResponseWasLost_isSettledAsApplied() {
    // GIVEN a pending job
    Job job = job("j-lost-cas");
    store.createIfAbsent(job);
    Job claimed = job.claim("worker-1", T0.plusSeconds(60), "q1", T0);
    // WHEN the claim's first response is lost after DynamoDB applied it (the SDK retries)
    http.loseNext(1);
    JobStore.CasResult result = store.compareAndSet(1, claimed);
    // THEN the retry's condition failure is recognised as our own write
    assertThat(result).isEqualTo(new JobStore.CasResult.Settled(claimed, true));
    assertThat(store.find(job.id())).contains(claimed);
  }

  @Test
  void compareAndSet_lostRace_isAConflictNotApplied_evenAfterARetry() {
    // GIVEN a job another worker already claimed
    Job job = job("j-race");
    store.createIfAbsent(job);
    Job winner = job.claim("worker-1", T0.plusSeconds(60), "q1", T0);
    store.compareAndSet(1, winner);
    // WHEN a second worker's claim loses a response and retries
    http.loseNext(1);
    JobStore.CasResult result =
        store.compareAndSet(1, job.claim("worker-2", T0.plusSeconds(60), "q2", T0));
    // THEN it is a conflict carrying the winner
    assertThat(result.applied()).isFalse();
    assertThat(result.current()).isEqualTo(winner);
  }

  @Test
  void createIfAbsent_whoseResponseWasLost_reportsCreated() {
    Job job = job("j-lost-create");
    http.loseNext(1);
    assertThat(store.createIfAbsent(job)).isEqualTo(new JobStore.CreateResult.Created(job));
  }
}
