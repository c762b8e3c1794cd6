package dev.lake.infra;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;
import org.junit.jupiter.api.Test;
import software.amazon.awscdk.assertions.Match;
import software.amazon.awscdk.assertions.Template;

/**
 * Fleet-wide fair dispatch in the template: the job queue is a standard queue (a fair queue once
 * its messages carry a MessageGroupId, which SqsJobQueue sets to the tenant on every send; a FIFO
 * queue would serialize each tenant), consumed by the worker through its event source.
 */
class FairQueueStackTest {
  private final Synthesized synthesized = Synthesized.get();
  private final Template template = synthesized.template;

  @Test
  void jobQueue_isAStandardQueue_consumedByTheWorker() {
    String jobQueue = LakeStackTest.logicalId(synthesized.stack.data.queue);
    Map<String, Map<String, Object>> queues = template.findResources("AWS::SQS::Queue");
    assertThat(queues).containsKey(jobQueue);
    queues.values().forEach(q -> assertThat(q.toString()).doesNotContain("FifoQueue"));
    template.hasResourceProperties(
        "AWS::Lambda::EventSourceMapping",
        Match.objectLike(
            Map.of("EventSourceArn", Map.of("Fn::GetAtt", java.util.List.of(jobQueue, "Arn")))));
  }
}
