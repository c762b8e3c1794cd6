package dev.lake.bench;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

/** The fair-dispatch simulation's outcomes (virtual time, seeded: exact, no timers). */
class FairQueueSimulationTest {
  @Test
  void fairQueue_keepsPoliteTenantsWaitsShort_whileTheGreedyTenantHasABacklog() {
    // GIVEN the stack's defaults with a greedy tenant submitting 10x, offered load = capacity
    FairQueueSimulation.Config config = FairQueueSimulation.Config.defaults(1.0);
    // WHEN the queue hands out the oldest message first, and then as a fair queue
    List<FairQueueSimulation.TenantWaits> oldest = FairQueueSimulation.run(config, false);
    List<FairQueueSimulation.TenantWaits> fair = FairQueueSimulation.run(config, true);
    // THEN without groups every polite tenant waits behind the greedy backlog (minutes), with
    // them a polite job waits at most a small fraction of that, and every job still ran
    for (int i = 1; i < oldest.size(); i++) {
      assertThat(oldest.get(i).tenant()).startsWith("polite-");
      assertThat(oldest.get(i).p95Seconds()).isGreaterThan(60);
      assertThat(fair.get(i).p95Seconds()).isLessThan(oldest.get(i).p95Seconds() / 10);
      assertThat(fair.get(i).deferrals()).isZero();
    }
    assertThat(fair.get(0).tenant()).isEqualTo(FairQueueSimulation.GREEDY);
    assertThat(fair.get(0).jobs()).isEqualTo(oldest.get(0).jobs());
    assertThat(fair.get(0).p50Seconds()).isGreaterThan(oldest.get(1).p50Seconds());
    // AND a run is repeatable
    assertThat(FairQueueSimulation.run(config, true)).isEqualTo(fair);
  }
}
