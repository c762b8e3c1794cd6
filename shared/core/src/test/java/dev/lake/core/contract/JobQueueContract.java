package dev.lake.core.contract;

import static org.assertj.core.api.Assertions.assertThat;

import dev.lake.core.job.JobQueue;
import dev.lake.core.testing.Poll;
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
  void ackedMessage_isNeverRedelivered() {
    JobQueue queue = queue();
    queue.send("j-3");
    JobQueue.Message m = queue.receive(1, Duration.ofSeconds(2)).get(0);
    queue.ack(m);
    // past the one-second visibility timeout, every receive stays empty
    Poll.holdsFor(
        Duration.ofMillis(1_300),
        () -> queue.receive(10, Duration.ofMillis(100)).isEmpty(),
        "an acknowledged message is never received again");
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
  void extendVisibility_keepsTheMessageHidden() {
    // GIVEN a received message whose visibility is extended (a long job)
    JobQueue queue = queue();
    queue.send("j-5");
    JobQueue.Message m = queue.receive(1, Duration.ofSeconds(2)).get(0);
    queue.extendVisibility(m, Duration.ofSeconds(30));
    // WHEN the original timeout passes THEN it stays hidden throughout
    Poll.holdsFor(
        Duration.ofMillis(1_500),
        () -> queue.receive(1, Duration.ofMillis(100)).isEmpty(),
        "a message whose visibility was extended stays hidden");
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
