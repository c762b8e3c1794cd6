package dev.lake.bench;

import java.util.Arrays;
import java.util.Collection;
import java.util.List;

/**
 * When a time-based warm-up ends. Warm-up exists to take the cold costs (class loading, JIT,
 * caches, a background snapshot-cache copy) out of the timed runs; they show as times that keep
 * falling. On this shared 2-core machine a side's times also move both ways with the other
 * processes' load, which more warm-up cannot remove, and P1's runs are heavy-tailed (p90 3-4× p50):
 * two 20-run medians of the same side agreed within 5 % only 8-20 % of the time even after a minute
 * (a P1 trace at load 9), so the former two-sided 5 % test on fixed 20-run windows for four sides
 * at once almost never passed and every quick run hit its cap. Hence three changes: windows grow
 * with the warm-up (the last quarter of a side's runs against the quarter before, so the medians
 * rest on more runs as warm-up goes on and the coldest runs drop out); only a fall counts (a rise
 * is load, not warm-up); and a fall within the noise of the earlier median (above the lower end of
 * its distribution-free ~95 % confidence interval) counts as settled too, so a fixed tolerance
 * below what the machine can resolve does not keep the warm-up going to its cap.
 */
final class WarmupRule {
  /** Warm-up ends at {@code HARD_CAP_FACTOR × maxMillis} even before two windows ran. */
  static final int HARD_CAP_FACTOR = 3;

  private WarmupRule() {}

  /**
   * True when every series has at least two windows of {@code max(window, size / 4)} runs and the
   * median of its last window did not fall below both {@code (1 - tolerance)} × the median of the
   * window before and the lower bound of that median's confidence interval ({@link #lowerBound}).
   */
  static boolean settled(Collection<List<Double>> series, int window, double tolerance) {
    for (List<Double> s : series) {
      int w = Math.max(window, s.size() / 4);
      if (s.size() < 2 * w) {
        return false;
      }
      double last = median(s.subList(s.size() - w, s.size()));
      List<Double> earlier = s.subList(s.size() - 2 * w, s.size() - w);
      double before = median(earlier);
      if (last < Math.min((1 - tolerance) * before, lowerBound(earlier))) {
        return false;
      }
    }
    return true;
  }

  /**
   * True when the warm-up must end without a settled median: its time cap passed after at least two
   * windows of rounds (so the medians were compared at least once, however long a round takes: an
   * SF 1 TPC-H round of three sides takes 5-10 s), or {@link #HARD_CAP_FACTOR} × the cap passed.
   */
  static boolean capped(int rounds, long elapsedMillis, ClientSpec.Warmup rule) {
    return elapsedMillis >= rule.maxMillis() * HARD_CAP_FACTOR
        || (elapsedMillis >= rule.maxMillis() && rounds >= 2 * rule.window());
  }

  /**
   * The lower end of a distribution-free ~95 % confidence interval of the median of {@code values}:
   * the order statistic {@code floor(n / 2 - 0.98 √n)} (normal approximation of the binomial), the
   * smallest value for fewer than 4 runs.
   */
  static double lowerBound(List<Double> values) {
    double[] v = values.stream().mapToDouble(Double::doubleValue).toArray();
    Arrays.sort(v);
    int k = (int) Math.max(0, Math.floor(v.length / 2.0 - 0.98 * Math.sqrt(v.length)));
    return v[k];
  }

  static double median(List<Double> values) {
    double[] v = values.stream().mapToDouble(Double::doubleValue).toArray();
    Arrays.sort(v);
    int m = v.length / 2;
    return v.length % 2 == 1 ? v[m] : (v[m - 1] + v[m]) / 2;
  }
}
