package dev.lake.core.local;

import static org.assertj.core.api.Assertions.assertThat;

import dev.lake.core.job.JobQueue;
import dev.lake.core.testing.MutableClock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class InProcessJobQueueFairnessTest {
  private final MutableClock clock = new MutableClock(Instant.parse("2030-01-01T00:00:00Z"));
  private final InProcessJobQueue queue = new InProcessJobQueue(Duration.ofMinutes(1), clock);

  @Test
  void receive_servesTenantsRoundRobin_soAGreedyBacklogDelaysOthersByOneJobAtMost() {
    // GIVEN a greedy tenant that queued 50 jobs, then a polite tenant's one job
    for (int i = 0; i < 50; i++) {
      queue.send("greedy-" + i, "greedy", Duration.ZERO);
    }
    queue.send("polite-0", "polite", Duration.ZERO);
    // WHEN two workers each take one job, one after the other
    List<String> taken = new ArrayList<>();
    taken.add(queue.receive(1, Duration.ZERO).get(0).jobId());
    taken.add(queue.receive(1, Duration.ZERO).get(0).jobId());
    // THEN the polite job is among the first two, and the greedy ones keep their order
    assertThat(taken).contains("polite-0").contains("greedy-0");
    assertThat(queue.receive(1, Duration.ZERO).get(0).jobId()).isEqualTo("greedy-1");
  }

  @Test
  void receive_alternatesTenants_withinOneBatch() {
    // GIVEN three tenants with several jobs each
    for (String tenant : List.of("a", "b", "c")) {
      for (int i = 0; i < 3; i++) {
        queue.send(tenant + i, tenant, Duration.ZERO);
      }
    }
    // WHEN six are received at once THEN each tenant gets two, interleaved
    assertThat(queue.receive(6, Duration.ZERO))
        .extracting(JobQueue.Message::jobId)
        .containsExactly("a0", "b0", "c0", "a1", "b1", "c1");
  }

  @Test
  void sendWithDelay_staysInvisible_untilTheDelayPassed() {
    // GIVEN a job sent with a 5 s delay (a deferred job)
    queue.send("j-1", "acme", Duration.ofSeconds(5));
    // WHEN received before and after the delay
    List<JobQueue.Message> early = queue.receive(1, Duration.ZERO);
    clock.advance(Duration.ofSeconds(5));
    List<JobQueue.Message> late = queue.receive(1, Duration.ZERO);
    // THEN only the late receive gets it, naming its tenant
    assertThat(early).isEmpty();
    assertThat(late).extracting(JobQueue.Message::tenant).containsExactly("acme");
  }
}
