package dev.lake.bench;

import java.util.Arrays;
import java.util.Collection;
import java.util.List;

/** The stabilization test of a time-based warm-up. */
final class WarmupRule {
  private WarmupRule() {}

  /**
   * True when every series has at least {@code 2 × window} runs and the median of its last {@code
   * window} runs differs from the median of the {@code window} runs before by at most {@code
   * tolerance} (relative to the earlier median).
   */
  static boolean settled(Collection<List<Double>> series, int window, double tolerance) {
    for (List<Double> s : series) {
      if (s.size() < 2 * window) {
        return false;
      }
      double last = median(s.subList(s.size() - window, s.size()));
      double before = median(s.subList(s.size() - 2 * window, s.size() - window));
      if (Math.abs(last - before) > tolerance * before) {
        return false;
      }
    }
    return true;
  }

  static double median(List<Double> values) {
    double[] v = values.stream().mapToDouble(Double::doubleValue).toArray();
    Arrays.sort(v);
    int m = v.length / 2;
    return v.length % 2 == 1 ? v[m] : (v[m - 1] + v[m]) / 2;
  }
}
