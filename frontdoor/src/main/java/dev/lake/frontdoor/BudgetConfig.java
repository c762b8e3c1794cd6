package dev.lake.frontdoor;

import static java.util.Objects.requireNonNull;

import dev.lake.core.Bounds;
import java.time.Duration;

/**
 * Per-tenant budgets of one front door per time window, validated at construction; 0 = unlimited
 * (the default for each). Windows are fixed and aligned to the epoch ({@code PT1H}: every full
 * hour, UTC), so "when it resets" is the next window's start.
 *
 * @param window the budget window (default 1 h, 1 min - 31 d)
 * @param scannedBytes Arrow bytes a tenant's statements may read from tables per window
 * @param resultBytes Arrow bytes a tenant's interactive statements may produce per window
 * @param egressBytes Arrow bytes lake may stream to a tenant per window (statements and durable
 *     result parts)
 */
public record BudgetConfig(Duration window, long scannedBytes, long resultBytes, long egressBytes) {
  public static final Duration DEFAULT_WINDOW = Duration.ofHours(1);

  /** The largest budget: 1 PiB. */
  public static final long MAX_BYTES = 1L << 50;

  public BudgetConfig {
    Bounds.check(
        "--budget-window",
        requireNonNull(window, "window is null"),
        Duration.ofMinutes(1),
        Duration.ofDays(31));
    Bounds.check("--budget-scanned-mb", scannedBytes, 0, MAX_BYTES);
    Bounds.check("--budget-result-mb", resultBytes, 0, MAX_BYTES);
    Bounds.check("--budget-egress-mb", egressBytes, 0, MAX_BYTES);
  }

  /** No budget: every tenant unlimited. */
  public static BudgetConfig unlimited() {
    return new BudgetConfig(DEFAULT_WINDOW, 0, 0, 0);
  }

  /** Budgets given in MiB (the flags' unit), 0 = unlimited. */
  public static BudgetConfig ofMebibytes(
      Duration window, long scannedMb, long resultMb, long egressMb) {
    return new BudgetConfig(window, mib(scannedMb), mib(resultMb), mib(egressMb));
  }

  boolean enabled() {
    return scannedBytes > 0 || resultBytes > 0 || egressBytes > 0;
  }

  private static long mib(long mb) {
    return mb > MAX_BYTES >> 20 || mb < 0 ? mb : mb << 20; // out of range: the check names it
  }
}
