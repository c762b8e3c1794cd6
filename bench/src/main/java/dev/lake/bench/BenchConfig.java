package dev.lake.bench;

import static java.util.Objects.requireNonNull;

import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * Settings of one bench run, validated once.
 *
 * @param scaleFactor TPC-H scale factor (default 1; quick runs use 0.1; 0.001 - 100)
 * @param warmups untimed rounds a group always gets before measuring (default 3, 0 - 1000); warm-up
 *     then continues until the medians settle or a time cap passes ({@link #warmup(boolean)}); 0 =
 *     no warm-up at all, cold figures (the harness test checks plumbing, not timings)
 * @param iterations timed runs per side, interleaved across sides (default 15, 1 - 10000)
 * @param out directory for results.jsonl, report.md and chart.svg
 * @param cacheDir where generated data is kept per scale factor and reused
 * @param only metric ids to run (empty = all)
 * @param forkClient whether client loops run in a separate JVM (the honest default)
 * @param jmhSeconds seconds per JMH warm-up and measurement iteration (default 1, 0 = tiny)
 * @param concurrentRequests concurrent GetFlightInfo of P6 (default 1000, 1 - 2000)
 */
public record BenchConfig(
    double scaleFactor,
    int warmups,
    int iterations,
    Path out,
    Path cacheDir,
    Set<String> only,
    boolean forkClient,
    int jmhSeconds,
    int concurrentRequests) {
  public static final double DEFAULT_SF = 1.0;
  public static final double QUICK_SF = 0.1;
  public static final int DEFAULT_WARMUPS = 3;
  public static final int DEFAULT_ITERATIONS = 15;
  public static final int QUICK_ITERATIONS = 5;
  public static final int DEFAULT_CONCURRENT_REQUESTS = 1000;
  public static final int SMALL_WARMUP_ROUNDS = 200;
  public static final Set<String> METRIC_IDS =
      Set.of("P1", "P2", "P3", "P4", "P5", "P6", "P7", "P8", "M1");

  public BenchConfig {
    requireNonNull(out, "out is null");
    requireNonNull(cacheDir, "cacheDir is null");
    only = Set.copyOf(requireNonNull(only, "only is null"));
    if (!(scaleFactor >= 0.001 && scaleFactor <= 100)) {
      throw new IllegalArgumentException(
          "scale factor must be between 0.001 and 100: " + scaleFactor);
    }
    if (warmups < 0 || warmups > 1000) {
      throw new IllegalArgumentException("warmups must be between 0 and 1000: " + warmups);
    }
    if (iterations < 1 || iterations > 10_000) {
      throw new IllegalArgumentException("iterations must be between 1 and 10000: " + iterations);
    }
    if (jmhSeconds < 0 || jmhSeconds > 60) {
      throw new IllegalArgumentException("jmhSeconds must be between 0 and 60: " + jmhSeconds);
    }
    if (concurrentRequests < 1 || concurrentRequests > 2000) {
      throw new IllegalArgumentException(
          "concurrentRequests must be between 1 and 2000: " + concurrentRequests);
    }
    for (String id : only) {
      if (!METRIC_IDS.contains(id)) {
        throw new IllegalArgumentException("unknown metric " + id + "; known: " + METRIC_IDS);
      }
    }
  }

  /** The full run at scale factor 1. */
  public static BenchConfig defaults(Path out, Path cacheDir) {
    return new BenchConfig(
        DEFAULT_SF,
        DEFAULT_WARMUPS,
        DEFAULT_ITERATIONS,
        out,
        cacheDir,
        Set.of(),
        true,
        1,
        DEFAULT_CONCURRENT_REQUESTS);
  }

  /** The quick run: scale factor 0.1, fewer iterations; 2-4 minutes on 2 quiet cores here. */
  public static BenchConfig quick(Path out, Path cacheDir) {
    return new BenchConfig(
        QUICK_SF,
        1,
        QUICK_ITERATIONS,
        out,
        cacheDir,
        Set.of(),
        true,
        1,
        DEFAULT_CONCURRENT_REQUESTS);
  }

  /** Timed runs per side for millisecond-scale requests (P1): many more than for big ones. */
  public int smallIterations() {
    return iterations * 10;
  }

  /**
   * Minimum warm-up rounds for millisecond-scale requests (P1): {@code 10 × warmups}, at least 200
   * (none with {@code warmups == 0}). HotSpot compiles by invocation counts, not time: in a P1
   * trace at load 9 lake's median stepped from 20 to 12 ms between rounds 150 and 250 after a
   * plateau that looked settled at round 100.
   */
  public int smallWarmups() {
    return warmups == 0 ? 0 : Math.max(SMALL_WARMUP_ROUNDS, warmups * 10);
  }

  /**
   * Time-based warm-up ({@link WarmupRule}): it ends when no side's median is still falling.
   * Millisecond-scale requests ({@code small}, P1) warm for at least 5 s (15 s in full runs),
   * compare windows of at least 20 runs and count a fall of up to 5 % as settled, capped at 30 s
   * (60 s); big requests (P2-P4) compare windows of at least 3 runs within 10 %, capped at 3 s
   * (full runs: at least 2 s, cap 20 s). A cap applies only once two windows ran (at the latest at
   * 3× the cap), so an SF 1 round of 5-10 s still gets its medians compared. A fixed number of
   * warm-up runs left both sides of a fresh JVM cold, which moved the ratios with the count. With
   * {@code warmups == 0} there is no warm-up at all ({@link ClientSpec.Warmup#FIXED}).
   */
  public ClientSpec.Warmup warmup(boolean small) {
    if (warmups == 0) {
      return ClientSpec.Warmup.FIXED;
    }
    boolean quick = groupBudgetMillis() > 0;
    if (small) {
      return quick
          ? new ClientSpec.Warmup(5_000, 30_000, 20, 0.05)
          : new ClientSpec.Warmup(15_000, 60_000, 20, 0.05);
    }
    return quick
        ? new ClientSpec.Warmup(0, 3_000, 3, 0.10)
        : new ClientSpec.Warmup(2_000, 20_000, 3, 0.10);
  }

  /** The client spec of big requests (P2-P4): time-based warm-up, budgeted groups. */
  public ClientSpec spec(String token, List<ClientSpec.Group> groups) {
    return new ClientSpec(warmups, iterations, token, groups, groupBudgetMillis(), warmup(false));
  }

  /**
   * Quick runs bound the timed runs of each P2, P3 (per query) and P4 group to about 5 s (at least
   * {@link ClientSpec#MIN_BUDGETED_RUNS} rounds) so that slow paths cannot push a quick run past
   * its three minutes on a loaded machine; full runs do every iteration. Each result's note gives
   * its run count.
   */
  public long groupBudgetMillis() {
    return scaleFactor <= QUICK_SF && iterations <= QUICK_ITERATIONS ? 5_000 : 0;
  }

  public boolean runs(String metricId) {
    return only.isEmpty() || only.contains(metricId);
  }

  /** The cache directory of this scale factor, e.g. {@code sf-0.1}. */
  public Path dataDir() {
    String sf = String.format(Locale.ROOT, "%s", scaleFactor).replaceAll("\\.0$", "");
    return cacheDir.resolve("sf-" + sf);
  }
}
