package dev.lake.bench;

import static org.assertj.core.api.Assertions.assertThat;

import dev.lake.durable.DurableTierConfig;
import org.junit.jupiter.api.Test;

class LocalLakeStackTest {
  @Test
  void benchDurable_keepsLocalModeSettings_butSplitsLineitemIntoAboutEightParts() {
    // GIVEN local mode's durable settings
    DurableTierConfig local = DurableTierConfig.defaults().withResultPrefix("");

    // WHEN the bench derives its own for SF 0.1 and SF 1
    DurableTierConfig quick = LocalLakeStack.benchDurable(0.1);
    DurableTierConfig full = LocalLakeStack.benchDurable(1);

    // THEN only the rows per part differ (one layout: the front-door and worker side alike)
    assertThat(quick.layout().bounds().maxPartRows()).isEqualTo(75_000);
    assertThat(full.layout().bounds().maxPartRows()).isEqualTo(750_000);
    assertThat(quick.layout().prefix()).isEmpty();
    assertThat(quick.workers()).isEqualTo(local.workers());
    assertThat(quick.pollWait()).isEqualTo(local.pollWait());
    assertThat(quick.layout().bounds().maxPartBytes())
        .isEqualTo(local.layout().bounds().maxPartBytes());
    assertThat(quick.worker().lease()).isEqualTo(local.worker().lease());
    // AND tiny scale factors keep a sane floor
    assertThat(LocalLakeStack.benchPartRows(0.001)).isEqualTo(1_000);
  }
}
