package dev.lake.frontdoor;

import static java.util.Objects.requireNonNull;

import dev.lake.core.ErrorCode;
import dev.lake.core.LakeException;
import java.time.Clock;
import java.time.Instant;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Enforces {@link BudgetConfig}: what each tenant used in the current window of this front door,
 * checked before a statement (or part download) starts and charged as it runs. Over a budget is
 * RESOURCE_EXHAUSTED naming the budget, the use, the flag and when the window resets. Scanned bytes
 * are known when a statement ends, so the statement that crosses that budget completes and the next
 * one is refused; result and egress bytes are charged per batch before it is sent, so a stream
 * stops before the batch that would cross either. State is one small record per tenant seen in the
 * current window; earlier windows' records are dropped when a window turns.
 */
final class TenantBudgets {
  enum Kind {
    SCANNED("scanned-bytes", "--budget-scanned-mb"),
    RESULT("result-bytes", "--budget-result-mb"),
    EGRESS("egress-bytes", "--budget-egress-mb");

    final String label;
    final String flag;

    Kind(String label, String flag) {
      this.label = label;
      this.flag = flag;
    }
  }

  private final BudgetConfig config;
  private final Clock clock;
  private final long windowMillis;
  private final Map<String, Usage> usage = new ConcurrentHashMap<>();
  private volatile long currentWindow = Long.MIN_VALUE;

  TenantBudgets(BudgetConfig config, Clock clock) {
    this.config = requireNonNull(config, "config is null");
    this.clock = requireNonNull(clock, "clock is null");
    this.windowMillis = config.window().toMillis();
  }

  boolean enabled() {
    return config.enabled();
  }

  /** Refuses a tenant with any budget used up in this window (before anything starts). */
  void checkBeforeStart(String tenant) {
    if (!config.enabled()) {
      return;
    }
    Usage u = usage(tenant);
    for (Kind k : Kind.values()) {
      long limit = limit(k);
      if (limit > 0 && u.get(k) >= limit) {
        throw exhausted(tenant, k, "used " + mib(u.get(k)), u.window);
      }
    }
  }

  /** Adds {@code bytes} of {@code kind} to the tenant's use (a finished statement's scan). */
  void charge(String tenant, Kind kind, long bytes) {
    if (limit(kind) > 0 && bytes > 0) {
      usage(tenant).add(kind, bytes);
    }
  }

  /**
   * Charges a batch about to be sent, or refuses it (nothing charged) when it would take the tenant
   * past a budget: the stream then stops with RESOURCE_EXHAUSTED.
   */
  void chargeBatch(String tenant, long bytes, boolean result) {
    if (!config.enabled()) {
      return;
    }
    Usage u = usage(tenant);
    Kind[] kinds = result ? new Kind[] {Kind.RESULT, Kind.EGRESS} : new Kind[] {Kind.EGRESS};
    synchronized (u) {
      for (Kind k : kinds) {
        long limit = limit(k);
        if (limit > 0 && u.get(k) + bytes > limit) {
          throw exhausted(
              tenant, k, "the next batch would bring it to " + mib(u.get(k) + bytes), u.window);
        }
      }
      for (Kind k : kinds) {
        if (limit(k) > 0) {
          u.add(k, bytes);
        }
      }
    }
  }

  /**
   * {@code notes} that also charge the statement's scanned bytes once its accounting landed (the
   * streamer hands it over when the stream ends); {@code notes} itself without a scanned budget.
   */
  CallNotes chargingScans(String tenant, CallNotes notes) {
    if (config.scannedBytes() == 0) {
      return notes;
    }
    return new CallNotes() {
      @Override
      public void query(String queryId) {
        notes.query(queryId);
      }

      @Override
      public void snapshots(dev.lake.core.SnapshotSet snapshots) {
        notes.snapshots(snapshots);
      }

      @Override
      public void job(String jobId) {
        notes.job(jobId);
      }

      @Override
      public void planned(java.time.Duration elapsed) {
        notes.planned(elapsed);
      }

      @Override
      public void streamed(
          java.time.Duration firstBatch,
          java.time.Duration total,
          java.util.concurrent.CompletableFuture<dev.lake.core.QueryStats> stats) {
        stats.thenAccept(s -> charge(tenant, Kind.SCANNED, s.scannedBytes()));
        notes.streamed(firstBatch, total, stats);
      }
    };
  }

  private long limit(Kind k) {
    return switch (k) {
      case SCANNED -> config.scannedBytes();
      case RESULT -> config.resultBytes();
      case EGRESS -> config.egressBytes();
    };
  }

  private Usage usage(String tenant) {
    long window = Math.floorDiv(clock.millis(), windowMillis);
    if (window != currentWindow) {
      currentWindow = window;
      usage.values().removeIf(u -> u.window < window); // bounded: tenants of this window only
    }
    return usage.compute(tenant, (t, u) -> u == null || u.window != window ? new Usage(window) : u);
  }

  private LakeException exhausted(String tenant, Kind k, String use, long window) {
    Instant resets = Instant.ofEpochMilli((window + 1) * windowMillis);
    return new LakeException(
        ErrorCode.RESOURCE_EXHAUSTED,
        String.format(
            Locale.ROOT,
            "Tenant %s is over its %s budget (%s of %s per %s, %s); it resets at %s",
            tenant,
            k.label,
            use,
            mib(limit(k)),
            config.window(),
            k.flag,
            resets));
  }

  private static String mib(long bytes) {
    return String.format(Locale.ROOT, "%.1f MiB", bytes / 1048576.0);
  }

  /** One tenant's use in one window. */
  private static final class Usage {
    final long window;
    private final AtomicLong[] used = {new AtomicLong(), new AtomicLong(), new AtomicLong()};

    Usage(long window) {
      this.window = window;
    }

    long get(Kind k) {
      return used[k.ordinal()].get();
    }

    void add(Kind k, long bytes) {
      used[k.ordinal()].addAndGet(bytes);
    }
  }
}
