package dev.lake.bench;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

class WarmupRuleTest {
  @Test
  void settled_whenNoSidesMedianFellByMoreThanTheTolerance() {
    // GIVEN two sides whose last two 3-run windows have medians 10.4 → 10.0 and 2.0 → 2.1 (b rose)
    List<Double> a = List.of(50.0, 30.0, 10.0, 11.0, 9.0, 10.4, 12.0, 9.0, 10.0);
    List<Double> b = List.of(2.0, 2.2, 1.9, 2.1, 2.0, 2.3);
    // and a side whose last median (8.2) fell below every run of the window before (9.0 - 11.0)
    List<Double> fell = List.of(50.0, 30.0, 10.0, 11.0, 9.0, 10.4, 8.0, 8.5, 8.2);

    // WHEN/THEN a 4 % fall is settled, b's rise is load, not warm-up; a 21 % fall is not settled
    assertThat(WarmupRule.settled(List.of(a, b), 3, 0.10)).isTrue();
    assertThat(WarmupRule.settled(List.of(b), 3, 0.0)).isTrue();
    assertThat(WarmupRule.settled(List.of(a, b, fell), 3, 0.10)).isFalse();
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
  void windowsGrowWithTheWarmup_soASlowTrendIsSeenAndColdRunsDropOut() {
    // GIVEN 400 runs: 100 cold ones (30 ms), then a slow fall from 12 to 9 ms over 300 runs
    List<Double> s = new ArrayList<>();
    for (int i = 0; i < 100; i++) {
      s.add(30.0);
    }
    for (int i = 0; i < 300; i++) {
      s.add(12.0 - 3.0 * i / 300);
    }

    // WHEN/THEN two 20-run windows differ by 2 % (within 5 %), but the last quarter against the
    // quarter before (100 runs each) shows the 10 % fall: not settled
    assertThat(WarmupRule.settled(List.of(s), 20, 0.05)).isFalse();
    assertThat(median(s.subList(360, 380)) / median(s.subList(380, 400))).isLessThan(1.05);
  }

  @Test
  void settles_onAStationaryButNoisySeries_whereTwoSidedFixedWindowsRarelyAgree() {
    // GIVEN four sides of stationary heavy-tailed noise (log-normal, σ 0.6, like P1's runs here)
    Random random = new Random(42);
    List<List<Double>> sides = new ArrayList<>();
    for (int k = 0; k < 4; k++) {
      List<Double> s = new ArrayList<>();
      for (int i = 0; i < 400; i++) {
        s.add(5.0 * Math.exp(0.6 * random.nextGaussian()));
      }
      sides.add(s);
    }

    // WHEN the rule is checked after every round from round 40 on
    int settledChecks = 0;
    int twoSidedFixedChecks = 0;
    for (int r = 40; r <= 400; r++) {
      int n = r;
      List<List<Double>> prefix = sides.stream().map(s -> s.subList(0, n)).toList();
      settledChecks += WarmupRule.settled(prefix, 20, 0.05) ? 1 : 0;
      twoSidedFixedChecks += prefix.stream().allMatch(s -> twoSidedWithin(s, 20, 0.05)) ? 1 : 0;
    }

    // THEN it settles at most checks, where the former two-sided 20-run test almost never passed
    assertThat(settledChecks).isGreaterThan(100);
    assertThat(twoSidedFixedChecks).isLessThan(20);
  }

  @Test
  void aFallWithinTheNoiseOfTheEarlierMedian_countsAsSettled() {
    // GIVEN 40 noisy runs around 10 ms, the last 20 with a median 8 % lower
    List<Double> s = new ArrayList<>();
    for (int i = 0; i < 20; i++) {
      s.add(i % 2 == 0 ? 6.0 + i * 0.4 : 14.0 - i * 0.4);
    }
    for (int i = 0; i < 20; i++) {
      s.add(0.92 * s.get(i));
    }

    // WHEN/THEN an 8 % fall is beyond the 5 % tolerance but inside the earlier median's
    // confidence interval (its 6th-smallest run, 8.0 ms): settled; a fall to half is not
    assertThat(WarmupRule.lowerBound(s.subList(0, 20))).isEqualTo(8.0, within(1e-9));
    assertThat(WarmupRule.settled(List.of(s), 20, 0.05)).isTrue();
    List<Double> halved = new ArrayList<>(s.subList(0, 20));
    s.subList(0, 20).forEach(v -> halved.add(v / 2));
    assertThat(WarmupRule.settled(List.of(halved), 20, 0.05)).isFalse();
  }

  @Test
  void capped_onlyAfterTwoWindowsOfRounds_orAtThreeTimesTheCap() {
    ClientSpec.Warmup rule = new ClientSpec.Warmup(2_000, 20_000, 3, 0.10);

    assertThat(WarmupRule.capped(6, 19_999, rule)).isFalse();
    assertThat(WarmupRule.capped(6, 20_000, rule)).isTrue();
    // three 10 s rounds passed the cap, but the medians were never compared yet
    assertThat(WarmupRule.capped(3, 30_000, rule)).isFalse();
    assertThat(WarmupRule.capped(3, 60_000, rule)).isTrue();
  }

  @Test
  void warmup_rejectsACapBelowTheMinimum() {
    assertThatThrownBy(() -> new ClientSpec.Warmup(2_000, 1_000, 3, 0.1))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("2000, 1000");
  }

  private static boolean twoSidedWithin(List<Double> s, int w, double tolerance) {
    double last = median(s.subList(s.size() - w, s.size()));
    double before = median(s.subList(s.size() - 2 * w, s.size() - w));
    return Math.abs(last - before) <= tolerance * before;
  }

  private static double median(List<Double> values) {
    return WarmupRule.median(values);
  }
}
