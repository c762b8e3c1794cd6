package dev.lake.bench;

import static java.util.Objects.requireNonNull;

import java.util.List;
import java.util.Map;

/**
 * What a client loop runs: groups of sides measured interleaved (side A, side B, side A, …) after
 * warm-up. Serialized as JSON to hand it to a client JVM.
 *
 * @param warmups warm-up rounds a group always gets (every side once per round)
 * @param token bearer token for {@link Kind#FLIGHT_SQL} and {@link Kind#POLL} sides
 * @param groupBudgetMillis when positive, a group stops after the timed round in which its timed
 *     runs exceeded this many milliseconds, but never before {@link #MIN_BUDGETED_RUNS} rounds and
 *     only after an odd number of rounds (so a median is one run)
 * @param warmup when warm-up ends beyond {@code warmups} rounds ({@link Warmup#FIXED}: right there)
 */
public record ClientSpec(
    int warmups,
    int iterations,
    String token,
    List<Group> groups,
    long groupBudgetMillis,
    Warmup warmup) {
  /** Timed rounds a budgeted group always gets. */
  public static final int MIN_BUDGETED_RUNS = 3;

  public ClientSpec(int warmups, int iterations, String token, List<Group> groups) {
    this(warmups, iterations, token, groups, 0, Warmup.FIXED);
  }

  public ClientSpec {
    requireNonNull(token, "token is null");
    requireNonNull(warmup, "warmup is null");
    groups = List.copyOf(requireNonNull(groups, "groups is null"));
    if (warmups < 0 || iterations < 1) {
      throw new IllegalArgumentException("warmups >= 0 and iterations >= 1 required");
    }
  }

  /**
   * Time-based warm-up: rounds continue for at least {@code minMillis}, then until no side's median
   * is still falling ({@link WarmupRule#settled}: the last quarter of its runs, at least {@code
   * window}, against the quarter before), or until the cap ({@link WarmupRule#capped}).
   *
   * @param minMillis warm-up time always spent (JIT and caches of both sides)
   * @param maxMillis warm-up time cap, applied once two windows ran (at the latest at 3×); 0 = only
   *     the fixed {@code warmups} rounds
   * @param window smallest number of runs per side compared (at least 1)
   * @param tolerance relative fall of the median still counted as settled, e.g. 0.1
   */
  public record Warmup(long minMillis, long maxMillis, int window, double tolerance) {
    public static final Warmup FIXED = new Warmup(0, 0, 1, 0);

    public Warmup {
      if (minMillis < 0
          || maxMillis < minMillis
          || window < 1
          || !(tolerance >= 0 && tolerance < 1)) {
        throw new IllegalArgumentException(
            "warm-up needs 0 <= minMillis <= maxMillis, window >= 1, tolerance in [0, 1): "
                + minMillis
                + ", "
                + maxMillis
                + ", "
                + window
                + ", "
                + tolerance);
      }
    }
  }

  /** The warm-up a group actually got: rounds, milliseconds, and whether its medians settled. */
  public record WarmupUsed(int rounds, long millis, boolean stable) {
    /** E.g. {@code warm-up 14 rounds / 3.2 s (median stable)}; {@code no warm-up (cold)}. */
    public String describe() {
      if (rounds == 0) {
        return "no warm-up (cold)";
      }
      return String.format(
          java.util.Locale.ROOT,
          "warm-up %d rounds / %.1f s (%s)",
          rounds,
          millis / 1e3,
          stable ? "median stable" : "time cap reached before the median settled");
    }
  }

  /**
   * Sides compared with each other. Each timed run of a side starts {@code concurrency} identical
   * requests at once and lasts until the last one finishes.
   */
  public record Group(String name, int concurrency, List<Side> sides) {
    public Group {
      requireNonNull(name, "name is null");
      sides = List.copyOf(requireNonNull(sides, "sides is null"));
      if (concurrency < 1 || concurrency > 2000) {
        throw new IllegalArgumentException("concurrency must be between 1 and 2000");
      }
    }
  }

  /** How a side reaches its data. */
  public enum Kind {
    /** Flight SQL: execute(query) = GetFlightInfo, then DoGet of every endpoint. */
    FLIGHT_SQL,
    /** Flight SQL GetFlightInfo only (planning, resolution and sealing; no data). */
    FLIGHT_SQL_INFO,
    /** Plain Flight: GetFlightInfo(command = query), then DoGet of every endpoint. */
    FLIGHT,
    /** In-process DuckDB over read_parquet views named like lake's tables. */
    DUCKDB,
    /** Durable Flight SQL: PollFlightInfo until done, then DoGet of the parts. */
    POLL,
    /**
     * The Flight SQL JDBC driver: Statement.executeQuery (which prepares: CreatePreparedStatement,
     * GetFlightInfo, DoGet, ClosePreparedStatement), every value read with getObject.
     */
    JDBC
  }

  /**
   * @param target {@code grpc://host:port} for Flight sides, a Parquet directory for DuckDB
   * @param query SQL text, or the raw Flight command
   * @param options side-specific settings (e.g. {@code parallel} DoGets for POLL)
   */
  public record Side(
      String name, Kind kind, String target, String query, Map<String, String> options) {
    public Side {
      requireNonNull(name, "name is null");
      requireNonNull(kind, "kind is null");
      requireNonNull(target, "target is null");
      requireNonNull(query, "query is null");
      options = Map.copyOf(requireNonNull(options, "options is null"));
    }

    public static Side of(String name, Kind kind, String target, String query) {
      return new Side(name, kind, target, query, Map.of());
    }
  }

  /** Per side of every group: one entry per timed run; per group: the warm-up it got. */
  public record Outcome(Map<String, Map<String, Samples>> groups, Map<String, WarmupUsed> warmups) {
    public Outcome {
      groups = Map.copyOf(requireNonNull(groups, "groups is null"));
      warmups = Map.copyOf(requireNonNull(warmups, "warmups is null"));
    }

    /** The warm-up of {@code group}, described for a result note. */
    public String warmupNote(String group) {
      WarmupUsed w = warmups.get(group);
      return w == null ? "warm-up unknown" : w.describe();
    }

    public Samples get(String group, String side) {
      Map<String, Samples> g = groups.get(group);
      if (g == null || !g.containsKey(side)) {
        throw new IllegalStateException(
            "client loop returned no samples for " + group + "/" + side);
      }
      return g.get(side);
    }
  }

  /**
   * Timed runs of one side: wall nanoseconds, Arrow bytes and rows received per run, and the
   * server-reported extra (e.g. execution nanos of a durable job) when a side has one.
   */
  public record Samples(List<Long> nanos, List<Long> bytes, List<Long> rows, List<Long> extra) {
    public Samples {
      nanos = List.copyOf(requireNonNull(nanos, "nanos is null"));
      bytes = List.copyOf(requireNonNull(bytes, "bytes is null"));
      rows = List.copyOf(requireNonNull(rows, "rows is null"));
      extra = List.copyOf(requireNonNull(extra, "extra is null"));
    }

    /** Milliseconds per run. */
    public Stats millis() {
      return Stats.of(nanos.stream().mapToDouble(n -> n / 1e6).toArray());
    }

    /** MB/s (10^6 bytes per second) per run. */
    public Stats megabytesPerSecond() {
      double[] v = new double[nanos.size()];
      for (int i = 0; i < v.length; i++) {
        v[i] = bytes.get(i) / 1e6 / (nanos.get(i) / 1e9);
      }
      return Stats.of(v);
    }
  }
}
