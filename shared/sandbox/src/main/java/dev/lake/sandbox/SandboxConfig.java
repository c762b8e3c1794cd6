package dev.lake.sandbox;

import static java.util.Objects.requireNonNull;

import dev.lake.core.Bounds;
import java.time.Duration;

/**
 * How tenant SQL is isolated from the process that accepts requests, validated once. Flags of every
 * process command ({@code --engine-isolation} ⇔ {@code LAKE_ENGINE_ISOLATION} and so on, see
 * docs/security.md "Engine processes").
 *
 * @param isolation {@link Isolation#PROCESS} (every CLI mode's default): statements run in engine
 *     child processes; {@link Isolation#IN_PROCESS}: in this JVM (embedding and unit tests only)
 * @param ceilingBytes hard memory ceiling (resident set) of one engine process; 0 = derived from
 *     the pool's memory ({@link #ceilingFor})
 * @param heapBytes the engine process's JVM heap ({@code -Xmx})
 * @param grace how long a statement may take to stop after its deadline, a cancel or its client
 *     leaving before its engine process is killed
 * @param planningTimeout the longest a describe (planning) may take before it fails and, past the
 *     grace, its process is killed
 * @param watchdogInterval how often every engine process's resident set is sampled
 * @param startTimeout the longest an engine process may take to start listening
 * @param spare whether one started engine process waits to replace a killed one at once
 */
public record SandboxConfig(
    Isolation isolation,
    long ceilingBytes,
    long heapBytes,
    Duration grace,
    Duration planningTimeout,
    Duration watchdogInterval,
    Duration startTimeout,
    boolean spare) {
  /** Where tenant SQL runs. */
  public enum Isolation {
    PROCESS,
    IN_PROCESS
  }

  public static final long MIN_CEILING = 256L << 20;
  public static final long MAX_CEILING = 1L << 40;
  public static final long DEFAULT_HEAP = 256L << 20;
  public static final Duration DEFAULT_GRACE = Duration.ofSeconds(2);
  public static final Duration DEFAULT_PLANNING_TIMEOUT = Duration.ofSeconds(30);
  public static final Duration DEFAULT_WATCHDOG_INTERVAL = Duration.ofMillis(25);
  public static final Duration DEFAULT_START_TIMEOUT = Duration.ofSeconds(60);

  public SandboxConfig {
    requireNonNull(isolation, "isolation is null");
    if (ceilingBytes != 0) {
      Bounds.check("engineProcessCeilingBytes", ceilingBytes, MIN_CEILING, MAX_CEILING);
    }
    Bounds.check("engineProcessHeapBytes", heapBytes, 64L << 20, 32L << 30);
    Bounds.check("engineGrace", grace, Duration.ofMillis(100), Duration.ofMinutes(1));
    Bounds.check(
        "enginePlanningTimeout", planningTimeout, Duration.ofMillis(100), Duration.ofMinutes(10));
    Bounds.check(
        "engineWatchdogInterval", watchdogInterval, Duration.ofMillis(5), Duration.ofMillis(50));
    Bounds.check("engineStartTimeout", startTimeout, Duration.ofSeconds(1), Duration.ofMinutes(10));
  }

  /** Process isolation, derived ceiling, 256 MiB heap, 2 s grace, 30 s planning, a spare. */
  public static SandboxConfig defaults() {
    return new SandboxConfig(
        Isolation.PROCESS,
        0,
        DEFAULT_HEAP,
        DEFAULT_GRACE,
        DEFAULT_PLANNING_TIMEOUT,
        DEFAULT_WATCHDOG_INTERVAL,
        DEFAULT_START_TIMEOUT,
        true);
  }

  /** In this JVM (embedding, unit tests): no limit is enforced from outside. */
  public static SandboxConfig inProcess() {
    return withIsolation(defaults(), Isolation.IN_PROCESS);
  }

  private static SandboxConfig withIsolation(SandboxConfig c, Isolation isolation) {
    return new SandboxConfig(
        isolation,
        c.ceilingBytes,
        c.heapBytes,
        c.grace,
        c.planningTimeout,
        c.watchdogInterval,
        c.startTimeout,
        c.spare);
  }

  /** This config with the given ceiling (0 = derived). */
  public SandboxConfig withCeilingBytes(long value) {
    return new SandboxConfig(
        isolation, value, heapBytes, grace, planningTimeout, watchdogInterval, startTimeout, spare);
  }

  /** This config with the given grace. */
  public SandboxConfig withGrace(Duration value) {
    return new SandboxConfig(
        isolation,
        ceilingBytes,
        heapBytes,
        value,
        planningTimeout,
        watchdogInterval,
        startTimeout,
        spare);
  }

  /** This config with the given planning timeout. */
  public SandboxConfig withPlanningTimeout(Duration value) {
    return new SandboxConfig(
        isolation, ceilingBytes, heapBytes, grace, value, watchdogInterval, startTimeout, spare);
  }

  /**
   * The ceiling of a process whose DuckDB {@code memory_limit} is {@code poolMemoryBytes}: the set
   * one, else twice the pool (DuckDB's native use runs past its limit; Arrow batches in flight come
   * on top) plus the heap plus 256 MiB for the JVM itself, at least {@link #MIN_CEILING}.
   */
  public long ceilingFor(long poolMemoryBytes) {
    if (ceilingBytes > 0) {
      return ceilingBytes;
    }
    return Math.max(MIN_CEILING, 2 * poolMemoryBytes + heapBytes + (256L << 20));
  }
}
