package dev.lake.aws;

import static org.assertj.core.api.Assertions.assertThat;

import dev.lake.aws.testing.AwsTestKit;
import dev.lake.aws.testing.MotoExtension;
import dev.lake.core.job.JobQueue;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.OptionalInt;
import java.util.UUID;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.extension.ExtendWith;
import software.amazon.awssdk.services.sqs.model.QueueAttributeName;

/**
 * {@link SqsJobQueue#maxReceives} reads the queue's redrive policy, so a worker knows which
 * delivery of a message is the last before SQS moves it to the dead-letter queue (and ends its job
 * first).
 */
@ExtendWith(MotoExtension.class)
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class SqsJobQueueRedriveTest {
  private AwsTestKit.Resources aws;

  @BeforeAll
  void createResources() {
    aws = AwsTestKit.create();
  }

  @AfterAll
  void closeClients() {
    aws.clients().close();
  }

  @Test
  void maxReceives_isTheRedrivePolicysCount_andItsLastDeliveryIsKnown() {
    // GIVEN a queue that dead-letters after 3 receives (the policy as the deployment writes it)
    SqsJobQueue queue = new SqsJobQueue(aws.clients().sqs(), queueWithRedrive("\"3\""));
    queue.send("j-1", "acme", Duration.ZERO);
    // WHEN its message is delivered three times without being acknowledged
    List<Boolean> last = new ArrayList<>();
    for (int i = 0; i < 3; i++) {
      JobQueue.Message m = receiveOne(queue);
      last.add(queue.lastDelivery(m));
      queue.nack(m, Duration.ZERO);
    }
    // THEN the queue reports its bound, and only the third delivery is the last
    assertThat(queue.maxReceives()).isEqualTo(OptionalInt.of(3));
    assertThat(last).containsExactly(false, false, true);
    // AND a numeric count reads the same
    assertThat(new SqsJobQueue(aws.clients().sqs(), queueWithRedrive("7")).maxReceives())
        .isEqualTo(OptionalInt.of(7));
  }

  @Test
  void aQueueWithoutRedrive_neverHasALastDelivery() {
    // GIVEN the test kit's queue, which has no dead-letter queue
    SqsJobQueue queue = new SqsJobQueue(aws.clients().sqs(), aws.config().queueUrl());
    // THEN it never gives a message up, so no delivery is the last
    assertThat(queue.maxReceives()).isEmpty();
    assertThat(queue.lastDelivery(new JobQueue.Message("j-2", "acme", "r", 1_000))).isFalse();
  }

  private JobQueue.Message receiveOne(SqsJobQueue queue) {
    for (int i = 0; i < 20; i++) {
      List<JobQueue.Message> got = queue.receive(1, Duration.ofSeconds(1));
      if (!got.isEmpty()) {
        return got.get(0);
      }
    }
    throw new AssertionError("no message within 20 receives");
  }

  private String queueWithRedrive(String maxReceiveCount) {
    String suffix = UUID.randomUUID().toString().substring(0, 8);
    String dlq = aws.clients().sqs().createQueue(b -> b.queueName("dlq-" + suffix)).queueUrl();
    String dlqArn =
        aws.clients()
            .sqs()
            .getQueueAttributes(b -> b.queueUrl(dlq).attributeNames(QueueAttributeName.QUEUE_ARN))
            .attributes()
            .get(QueueAttributeName.QUEUE_ARN);
    return aws.clients()
        .sqs()
        .createQueue(
            b ->
                b.queueName("jobs-" + suffix)
                    .attributes(
                        Map.of(
                            QueueAttributeName.REDRIVE_POLICY,
                            "{\"deadLetterTargetArn\":\""
                                + dlqArn
                                + "\",\"maxReceiveCount\":"
                                + maxReceiveCount
                                + "}")))
        .queueUrl();
  }
}
