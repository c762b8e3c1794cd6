package dev.lake.bench;

import static java.util.Objects.requireNonNull;

import dev.lake.frontdoor.FrontDoorConfig;
import java.time.Duration;
import java.util.Locale;
import java.util.Map;
import java.util.SortedMap;

/**
 * The figures of one load-test run: polite latencies (sorted, ms) of the baseline and contention
 * phases, outcome counts by actor and status, peak RSS, and the machine's load average around it.
 */
record LoadReport(
    LoadConfig config,
    FrontDoorConfig frontDoor,
    double[] baseline,
    double[] contention,
    SortedMap<String, SortedMap<String, Long>> outcomes,
    long peakRssBytes,
    String loadBefore,
    String loadAfter,
    Duration took) {
  LoadReport {
    requireNonNull(config, "config is null");
    requireNonNull(frontDoor, "frontDoor is null");
    requireNonNull(baseline, "baseline is null");
    requireNonNull(contention, "contention is null");
    requireNonNull(outcomes, "outcomes is null");
  }

  /** Nearest-rank percentile of sorted {@code ms}; NaN when there is none. */
  static double percentile(double[] ms, int p) {
    return ms.length == 0 ? Double.NaN : Stats.percentile(ms, p);
  }

  /** Outcomes of {@code actor} (e.g. {@code greedy/oversized}), empty when it never ran. */
  Map<String, Long> outcomes(String actor) {
    return outcomes.getOrDefault(actor, new java.util.TreeMap<>());
  }

  /** The report as Markdown, ready for docs/security.md. */
  String markdown() {
    StringBuilder s = new StringBuilder();
    LoadConfig c = config;
    s.append(
        String.format(
            Locale.ROOT,
            "Load test: %d polite tenants × %d Flight SQL clients (think time %d ms), greedy tenant"
                + " with %d clients; TPC-H SF %s; warm-up %d s, baseline %d s, contention %d s;"
                + " engine memory limit %d MiB; gates %d queries (%d per tenant), idle-stream"
                + " timeout %d s, heavy-query deadline %d s; run took %.0f s; load average %s"
                + " before, %s after.%n%n",
            c.politeTenants(),
            c.clientsPerTenant(),
            c.thinkTime().toMillis(),
            c.greedyClients(),
            c.scale(),
            c.warmup().toSeconds(),
            c.baseline().toSeconds(),
            c.contention().toSeconds(),
            c.engineMemoryBytes() >> 20,
            frontDoor.maxConcurrentQueries(),
            frontDoor.maxConcurrentQueriesPerTenant(),
            frontDoor.idleStreamTimeout().toSeconds(),
            c.heavyDeadline().toSeconds(),
            took.toMillis() / 1e3,
            loadBefore,
            loadAfter));
    s.append("| polite latency (ms) | baseline | with greedy tenant | ratio |\n");
    s.append("|---|---|---|---|\n");
    for (int p : new int[] {50, 99}) {
      double a = percentile(baseline, p);
      double b = percentile(contention, p);
      s.append(String.format(Locale.ROOT, "| p%d | %.1f | %.1f | %.2f |%n", p, a, b, b / a));
    }
    s.append(
        String.format(
            Locale.ROOT,
            "| successful queries | %d | %d | |%n%n",
            baseline.length,
            contention.length));
    s.append("| actor | outcomes by Flight status |\n|---|---|\n");
    outcomes.forEach(
        (actor, statuses) ->
            s.append("| ")
                .append(actor)
                .append(" | ")
                .append(statuses.toString().replaceAll("[{}]", "").replace("=", ": "))
                .append(" |\n"));
    s.append(
        String.format(
            Locale.ROOT,
            "%nPeak RSS of the JVM (server and all clients): %d MiB, engine memory limit %d MiB"
                + " (ratio %.2f).%n",
            peakRssBytes >> 20,
            c.engineMemoryBytes() >> 20,
            (double) peakRssBytes / c.engineMemoryBytes()));
    return s.toString();
  }
}
