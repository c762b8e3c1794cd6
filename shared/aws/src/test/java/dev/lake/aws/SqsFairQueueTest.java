package dev.lake.aws;

import static org.assertj.core.api.Assertions.assertThat;

import dev.lake.aws.testing.AwsTestKit;
import dev.lake.aws.testing.MotoExtension;
import dev.lake.core.job.JobQueue;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.extension.ExtendWith;
import software.amazon.awssdk.services.sqs.model.Message;
import software.amazon.awssdk.services.sqs.model.MessageSystemAttributeName;

/**
 * The fair-queue wiring on the emulator: every job message lake sends to the standard queue carries
 * {@code MessageGroupId} = its tenant, sends and deferrals alike, and receives read it back. (moto
 * accepts and returns the group id; it does not emulate SQS's fair ordering, which bench's
 * FairQueueSimulation models.)
 */
@ExtendWith(MotoExtension.class)
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class SqsFairQueueTest {
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
  void sendAndDefer_groupEveryMessageByItsTenant_onTheStandardQueue() {
    // GIVEN the deployment's standard queue and jobs of two tenants, one deferred once
    SqsJobQueue queue = new SqsJobQueue(aws.clients().sqs(), aws.config().queueUrl());
    queue.send("j-acme-1", "acme", Duration.ZERO);
    queue.send("j-globex-1", "globex", Duration.ZERO);
    JobQueue.Message first = receive(queue, 1).get(0);
    queue.defer(first, Duration.ZERO);
    // WHEN the raw messages are read with their system attributes
    Map<String, String> groups = new TreeMap<>();
    for (Message m : rawReceive(2)) {
      groups.put(
          JobQueue.jobIdOf(m.body()).orElseThrow(),
          m.attributes().get(MessageSystemAttributeName.MESSAGE_GROUP_ID));
    }
    // THEN each carries its tenant as the group id, the deferred one too
    assertThat(groups).isEqualTo(Map.of("j-acme-1", "acme", "j-globex-1", "globex"));
  }

  @Test
  void receive_takesTheTenantFromTheGroup_whenTheBodyNamesNone() {
    // GIVEN a message whose body has no tenant but whose group is one
    aws.clients()
        .sqs()
        .sendMessage(
            b ->
                b.queueUrl(aws.config().queueUrl())
                    .messageBody(JobQueue.body("j-initech-1"))
                    .messageGroupId("initech"));
    SqsJobQueue queue = new SqsJobQueue(aws.clients().sqs(), aws.config().queueUrl());
    // THEN lake's receive names the group's tenant
    JobQueue.Message m = receive(queue, 1).get(0);
    assertThat(m.jobId()).isEqualTo("j-initech-1");
    assertThat(m.tenant()).isEqualTo("initech");
    queue.ack(m);
  }

  private static List<JobQueue.Message> receive(SqsJobQueue queue, int n) {
    List<JobQueue.Message> out = new ArrayList<>();
    for (int i = 0; i < 20 && out.size() < n; i++) {
      out.addAll(queue.receive(n - out.size(), Duration.ofSeconds(1)));
    }
    assertThat(out).hasSize(n);
    return out;
  }

  private List<Message> rawReceive(int n) {
    List<Message> out = new ArrayList<>();
    for (int i = 0; i < 20 && out.size() < n; i++) {
      List<Message> got =
          aws.clients()
              .sqs()
              .receiveMessage(
                  b ->
                      b.queueUrl(aws.config().queueUrl())
                          .maxNumberOfMessages(n - out.size())
                          .waitTimeSeconds(1)
                          .messageSystemAttributeNames(MessageSystemAttributeName.ALL))
              .messages();
      for (Message m : got) {
        out.add(m);
        aws.clients()
            .sqs()
            .deleteMessage(
                b -> b.queueUrl(aws.config().queueUrl()).receiptHandle(m.receiptHandle()));
      }
    }
    assertThat(out).hasSize(n);
    return out;
  }
}
