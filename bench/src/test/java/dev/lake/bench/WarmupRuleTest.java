package dev.lake.bench;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import org.junit.jupiter.api.Test;

class WarmupRuleTest {
  @Test
  void settled_whenEverySidesLastWindowMedianIsWithinTolerance() {
    // GIVEN two sides whose last two 3-run windows have medians 10.0/10.4 and 2.0/2.1
    List<Double> a = List.of(50.0, 30.0, 10.0, 11.0, 9.0, 10.4, 12.0, 10.0, 10.4);
    List<Double> b = List.of(2.0, 2.2, 1.9, 2.1, 2.0, 2.3);

    // WHEN/THEN within 10 % they settled; within 1 % they did not
    assertThat(WarmupRule.settled(List.of(a, b), 3, 0.10)).isTrue();
    assertThat(WarmupRule.settled(List.of(a, b), 3, 0.01)).isFalse();
  }

  @Test
  void notSettled_whileAMedianIsStillFalling_orTooFewRunsExist() {
    // GIVEN a side still warming up (13 ms → 6 ms) and one with fewer than two windows
    List<Double> falling = List.of(13.0, 12.0, 12.5, 7.0, 6.0, 6.5);
    List<Double> short_ = List.of(1.0, 1.0, 1.0);

    // WHEN/THEN neither counts as settled
    assertThat(WarmupRule.settled(List.of(falling), 3, 0.10)).isFalse();
    assertThat(WarmupRule.settled(List.of(short_), 3, 0.10)).isFalse();
  }

  @Test
  void warmup_rejectsACapBelowTheMinimum() {
    assertThatThrownBy(() -> new ClientSpec.Warmup(2_000, 1_000, 3, 0.1))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("2000, 1000");
  }
}
