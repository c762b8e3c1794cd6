package dev.lake.lambda;

import static org.assertj.core.api.Assertions.assertThat;

import com.amazonaws.services.lambda.runtime.events.SQSBatchResponse;
import com.amazonaws.services.lambda.runtime.events.SQSEvent;
import com.fasterxml.jackson.databind.JsonNode;
import dev.lake.core.Json;
import dev.lake.core.job.Job;
import dev.lake.core.job.JobQueue;
import dev.lake.core.job.JobState;
import dev.lake.core.job.JobStatus;
import dev.lake.durable.FakeEngine;
import dev.lake.durable.LocalPorts;
import dev.lake.durable.WorkerConfig;
import dev.lake.durable.WorkerFixture;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The Lambda entry point over the embedded ports. The job processor's own scenarios run in the
 * worker module ({@code DeliveryScenarios}, {@code FaultScenarios}); only the SQS batch contract is
 * checked here.
 */
class WorkerHandlerTest {
  @TempDir Path dir;
  private final List<String> emf = new java.util.ArrayList<>();

  /** The worker module's fixture over the embedded ports under {@link #dir}. */
  private WorkerFixture localFixture() {
    return new WorkerFixture() {
      @Override
      protected Ports ports() {
        return LocalPorts.create(dir);
      }
    };
  }

  @Test
  void lambdaHandler_reportsOnlyRetriableMessages_asBatchItemFailures() throws Exception {
    // GIVEN one runnable job, one job held by a live worker, and a foreign message
    WorkerFixture scenario = localFixture();
    scenario.setUp();
    try {
      JobStatus free = scenario.submit();
      JobStatus held = scenario.submit();
      Job h = scenario.job(held);
      scenario
          .ports
          .jobs()
          .compareAndSet(
              h.version(),
              h.claim("other", scenario.later(), "qheld", Clock.systemUTC().instant()));
      WorkerConfig config = WorkerFixture.config(1, Duration.ofSeconds(30));
      WorkerHandler handler =
          new WorkerHandler(
              scenario.processor("lambda", new FakeEngine(1, 10, Duration.ZERO), config),
              scenario.ports.queue(),
              config,
              Clock.systemUTC(),
              new EmfMetrics(emf::add));
      SQSEvent event = new SQSEvent();
      event.setRecords(
          List.of(message("m1", free.jobId()), message("m2", held.jobId()), foreign("m3")));
      // WHEN the batch is handled
      SQSBatchResponse response = handler.handleRequest(event, null);
      // THEN only the held job is retried
      assertThat(response.getBatchItemFailures())
          .extracting(SQSBatchResponse.BatchItemFailure::getItemIdentifier)
          .containsExactly("m2");
      assertThat(scenario.job(free).state()).isEqualTo(JobState.SUCCEEDED);
      // AND each job message left one EMF line (the foreign message none)
      assertThat(emf).hasSize(2);
      JsonNode done = Json.mapper().readTree(emf.get(0));
      assertThat(done.get("outcome").asText()).isEqualTo("DONE");
      assertThat(done.get("job").asText()).isEqualTo(free.jobId());
      // the attempt's phases and accounting: the fake engine's rows, written parts timed
      assertThat(done.get("ProcessingMillis").asLong()).isNotNegative();
      assertThat(done.get("PlanningMillis").asLong()).isNotNegative();
      assertThat(done.get("UploadMillis").asLong())
          .isBetween(0L, done.get("ProcessingMillis").asLong());
      assertThat(done.get("ResultRows").asLong()).isEqualTo(10);
      assertThat(done.get("tenant").asText()).isEqualTo(scenario.job(free).tenant());
      // the held job ran no attempt: timings only
      JsonNode retried = Json.mapper().readTree(emf.get(1));
      assertThat(retried.get("outcome").asText()).isEqualTo("RETRY");
      assertThat(retried.has("PlanningMillis")).isFalse();
    } finally {
      scenario.closeAll();
    }
  }

  @Test
  void lambdaHandler_endsAJobAtItsMessagesLastDelivery_releasingItsPlace_andStillReportsIt()
      throws Exception {
    // GIVEN two jobs whose uploads keep failing (5 attempts allowed), on a queue that gives a
    // message up after 3 receives
    WorkerFixture scenario = localFixture();
    scenario.setUp();
    try {
      JobStatus early = scenario.submit();
      JobStatus last = scenario.submit();
      scenario.objects.failuresLeft.set(1_000);
      WorkerConfig config = WorkerFixture.config(5, Duration.ofSeconds(30));
      WorkerHandler handler =
          new WorkerHandler(
              scenario.processor("lambda", new FakeEngine(3, 1_000, Duration.ZERO), config),
              new GivesUpAfter(3, scenario.ports.queue()),
              config,
              Clock.systemUTC(),
              new EmfMetrics(emf::add));
      SQSEvent event = new SQSEvent();
      event.setRecords(
          List.of(
              received(message("m1", early.jobId()), 2), received(message("m2", last.jobId()), 3)));
      // WHEN the batch is handled: neither attempt finishes its job
      SQSBatchResponse response = handler.handleRequest(event, null);
      // THEN both messages are reported for redelivery (the last one goes on to the DLQ)
      assertThat(response.getBatchItemFailures())
          .extracting(SQSBatchResponse.BatchItemFailure::getItemIdentifier)
          .containsExactly("m1", "m2");
      // AND the job at its last delivery is FAILED, its place released; the other waits PENDING
      assertThat(scenario.job(early).state()).isEqualTo(JobState.PENDING);
      Job ended = scenario.job(last);
      assertThat(ended.state()).isEqualTo(JobState.FAILED);
      assertThat(ended.failure().orElseThrow().message()).contains("delivered to workers 3 times");
      assertThat(scenario.ports.jobs().usage(ended.tenant()).active()).isEqualTo(1);
    } finally {
      scenario.closeAll();
    }
  }

  /** SQS's receive count as the Lambda event carries it. */
  private static SQSEvent.SQSMessage received(SQSEvent.SQSMessage m, int count) {
    m.setAttributes(java.util.Map.of("ApproximateReceiveCount", Integer.toString(count)));
    return m;
  }

  /** The embedded queue, reporting a redrive bound as an SQS queue with a DLQ does. */
  private record GivesUpAfter(int max, JobQueue queue) implements JobQueue {
    @Override
    public java.util.OptionalInt maxReceives() {
      return java.util.OptionalInt.of(max);
    }

    @Override
    public void send(String jobId, String tenant, Duration delay) {
      queue.send(jobId, tenant, delay);
    }

    @Override
    public List<Message> receive(int count, Duration wait) {
      return queue.receive(count, wait);
    }

    @Override
    public void ack(Message message) {
      queue.ack(message);
    }

    @Override
    public void extendVisibility(Message message, Duration timeout) {
      queue.extendVisibility(message, timeout);
    }

    @Override
    public void nack(Message message, Duration delay) {
      queue.nack(message, delay);
    }
  }

  private static SQSEvent.SQSMessage message(String id, String jobId) {
    SQSEvent.SQSMessage m = new SQSEvent.SQSMessage();
    m.setMessageId(id);
    m.setBody(JobQueue.body(jobId));
    return m;
  }

  private static SQSEvent.SQSMessage foreign(String id) {
    SQSEvent.SQSMessage m = new SQSEvent.SQSMessage();
    m.setMessageId(id);
    m.setBody("hello");
    return m;
  }
}
