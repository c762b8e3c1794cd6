package dev.lake.bench;

import static java.util.Objects.requireNonNull;

import dev.lake.core.Bounds;
import java.time.Duration;

/**
 * Shape and bounds of one load-test run ({@link LoadTest}). Every loop of the run is capped both in
 * time (its phase) and in iterations ({@code maxIterations} per client and phase).
 *
 * @param politeTenants tenants that behave (1 - 64)
 * @param clientsPerTenant concurrent clients per polite tenant (1 - 64)
 * @param greedyClients concurrent clients of the one greedy tenant, behaviours assigned round-robin
 *     from {@link GreedyClient.Behaviour} (0 - 64; 0 runs the contention phase without it)
 * @param warmup polite-only warm-up, not measured (0 - 10 min)
 * @param baseline polite-only measured phase (1 s - 1 h)
 * @param contention polite plus greedy measured phase (1 s - 1 h)
 * @param thinkTime pause of a polite client between two queries (0 - 10 s)
 * @param maxIterations most requests of one client in one phase (1 - 10,000,000)
 * @param scale TPC-H scale factor of the demo data (0.001 - 1)
 * @param engineMemoryBytes DuckDB {@code memory_limit} of the server (64 MiB - 64 GiB)
 * @param idleStreamTimeout the server's idle-stream timeout (1 s - 1 h): how soon a slow reader is
 *     cut
 * @param heavyDeadline the client deadline ({@code x-lake-timeout-ms}) of the greedy heavy queries
 *     (1 s - 1 h)
 */
record LoadConfig(
    int politeTenants,
    int clientsPerTenant,
    int greedyClients,
    Duration warmup,
    Duration baseline,
    Duration contention,
    Duration thinkTime,
    int maxIterations,
    double scale,
    long engineMemoryBytes,
    Duration idleStreamTimeout,
    Duration heavyDeadline) {
  LoadConfig {
    requireNonNull(warmup, "warmup is null");
    requireNonNull(baseline, "baseline is null");
    requireNonNull(contention, "contention is null");
    requireNonNull(thinkTime, "thinkTime is null");
    requireNonNull(idleStreamTimeout, "idleStreamTimeout is null");
    requireNonNull(heavyDeadline, "heavyDeadline is null");
    Bounds.check("politeTenants", politeTenants, 1, 64);
    Bounds.check("clientsPerTenant", clientsPerTenant, 1, 64);
    Bounds.check("greedyClients", greedyClients, 0, 64);
    Bounds.check("warmup", warmup, Duration.ZERO, Duration.ofMinutes(10));
    Bounds.check("baseline", baseline, Duration.ofSeconds(1), Duration.ofHours(1));
    Bounds.check("contention", contention, Duration.ofSeconds(1), Duration.ofHours(1));
    Bounds.check("thinkTime", thinkTime, Duration.ZERO, Duration.ofSeconds(10));
    Bounds.check("maxIterations", maxIterations, 1, 10_000_000);
    if (!(scale >= 0.001 && scale <= 1)) {
      throw new IllegalArgumentException("scale must be between 0.001 and 1: " + scale);
    }
    Bounds.check("engineMemoryBytes", engineMemoryBytes, 64L << 20, 64L << 30);
    Bounds.check(
        "idleStreamTimeout", idleStreamTimeout, Duration.ofSeconds(1), Duration.ofHours(1));
    Bounds.check("heavyDeadline", heavyDeadline, Duration.ofSeconds(1), Duration.ofHours(1));
  }

  /**
   * 3 polite tenants × 2 clients, 8 greedy clients; 10 s warm-up, 60 s baseline, 90 s contention;
   * 20 ms think time; TPC-H SF 0.01; the engine's default 1 GiB; slow readers cut after 10 s; heavy
   * queries with a 5 s deadline.
   */
  static LoadConfig defaults() {
    return new LoadConfig(
        3,
        2,
        8,
        Duration.ofSeconds(10),
        Duration.ofSeconds(60),
        Duration.ofSeconds(90),
        Duration.ofMillis(20),
        1_000_000,
        0.01,
        1L << 30,
        Duration.ofSeconds(10),
        Duration.ofSeconds(5));
  }

  /** {@link #defaults()} with a 10 s warm-up, 20 s baseline and 40 s contention (< 2 min). */
  static LoadConfig quick() {
    LoadConfig d = defaults();
    return new LoadConfig(
        d.politeTenants,
        d.clientsPerTenant,
        d.greedyClients,
        Duration.ofSeconds(10),
        Duration.ofSeconds(20),
        Duration.ofSeconds(40),
        d.thinkTime,
        d.maxIterations,
        d.scale,
        d.engineMemoryBytes,
        d.idleStreamTimeout,
        d.heavyDeadline);
  }
}
