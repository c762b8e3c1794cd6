package dev.lake.core.contract;

import static org.assertj.core.api.Assertions.assertThat;

import dev.lake.core.job.JobQueue;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The behaviour every {@link JobQueue} implementation must show; subclass per adapter. */
public abstract class JobQueueContract {
  /** A fresh, empty queue whose visibility timeout is one second. */
  protected abstract JobQueue queue();

  @Test
  void send_thenReceive_deliversJobIdOnce() {
    // GIVEN one sent job
    JobQueue queue = queue();
    queue.send("j-1");
    // WHEN received
    List<JobQueue.Message> got = queue.receive(10, Duration.ofSeconds(2));
    // THEN it is delivered once and hidden from the next receive
    assertThat(got).extracting(JobQueue.Message::jobId).containsExactly("j-1");
    assertThat(got.get(0).receiveCount()).isEqualTo(1);
    assertThat(queue.receive(10, Duration.ZERO)).isEmpty();
  }

  @Test
  void unackedMessage_isRedelivered_afterVisibilityTimeout() {
    // GIVEN a received but never acknowledged message (its worker died)
    JobQueue queue = queue();
    queue.send("j-2");
    assertThat(queue.receive(1, Duration.ofSeconds(2))).hasSize(1);
    // WHEN the visibility timeout passes
    List<JobQueue.Message> again = receiveWithin(queue, Duration.ofSeconds(5));
    // THEN it comes back with a higher receive count
    assertThat(again).extracting(JobQueue.Message::jobId).containsExactly("j-2");
    assertThat(again.get(0).receiveCount()).isEqualTo(2);
  }

  @Test
  void ackedMessage_isNeverRedelivered() throws InterruptedException {
    JobQueue queue = queue();
    queue.send("j-3");
    JobQueue.Message m = queue.receive(1, Duration.ofSeconds(2)).get(0);
    queue.ack(m);
    Thread.sleep(1_300);
    assertThat(queue.receive(10, Duration.ZERO)).isEmpty();
  }

  @Test
  void nack_makesTheMessageVisibleAgainNow() {
    JobQueue queue = queue();
    queue.send("j-4");
    JobQueue.Message m = queue.receive(1, Duration.ofSeconds(2)).get(0);
    queue.nack(m, Duration.ZERO);
    assertThat(queue.receive(1, Duration.ofSeconds(2)))
        .extracting(JobQueue.Message::jobId)
        .containsExactly("j-4");
  }

  @Test
  void extendVisibility_keepsTheMessageHidden() throws InterruptedException {
    // GIVEN a received message whose visibility is extended (a long job)
    JobQueue queue = queue();
    queue.send("j-5");
    JobQueue.Message m = queue.receive(1, Duration.ofSeconds(2)).get(0);
    queue.extendVisibility(m, Duration.ofSeconds(30));
    // WHEN the original timeout passes
    Thread.sleep(1_500);
    // THEN it is still hidden
    assertThat(queue.receive(1, Duration.ZERO)).isEmpty();
  }

  private static List<JobQueue.Message> receiveWithin(JobQueue queue, Duration max) {
    long deadline = System.nanoTime() + max.toNanos();
    while (System.nanoTime() < deadline) {
      List<JobQueue.Message> got = queue.receive(1, Duration.ofSeconds(1));
      if (!got.isEmpty()) {
        return got;
      }
    }
    return List.of();
  }
}
