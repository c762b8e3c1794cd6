package dev.lake.bench;

import java.util.Arrays;

/** Order statistics of timed samples; nearest-rank percentiles over the sorted samples. */
public record Stats(double median, double p95, int count) {
  public Stats {
    if (count < 1) {
      throw new IllegalArgumentException("no samples");
    }
  }

  /** Statistics of {@code samples} (any unit; the result keeps it). */
  public static Stats of(double[] samples) {
    if (samples.length == 0) {
      throw new IllegalArgumentException("no samples");
    }
    double[] sorted = samples.clone();
    Arrays.sort(sorted);
    return new Stats(percentile(sorted, 50), percentile(sorted, 95), sorted.length);
  }

  static double percentile(double[] sorted, int p) {
    int rank = (int) Math.ceil(p / 100.0 * sorted.length);
    return sorted[Math.max(0, Math.min(sorted.length - 1, rank - 1))];
  }
}
