package dev.lake.app;

import dev.lake.engine.AdmissionConfig;
import dev.lake.frontdoor.BudgetConfig;
import dev.lake.frontdoor.FlightExecutorConfig;
import dev.lake.frontdoor.FrontDoorConfig;
import java.time.Duration;
import picocli.CommandLine.Option;

/**
 * The front door's load bounds as flags of {@code serve} and {@code local} (each also {@code
 * LAKE_*}, see {@link dev.lake.app.EnvDefaults}): the bounded Flight executor, the admission gates,
 * the idle-stream timeout and SQL admission's parse bounds. The fields hold the defaults of the
 * config records they feed, and every value is validated by those records ({@link
 * FlightExecutorConfig}, {@link FrontDoorConfig}, {@link AdmissionConfig}), so a bad value fails
 * the start with one line naming the setting and the value.
 */
public final class LimitOptions {
  @Option(
      names = "--flight-threads",
      description =
          "Threads running Flight calls (default ${DEFAULT-VALUE}, 4 - 4096); three quarters of"
              + " them run admitted calls, beyond that a call is RESOURCE_EXHAUSTED.")
  int flightThreads = FlightExecutorConfig.DEFAULT_THREADS;

  @Option(
      names = "--flight-queue",
      description = "Flight calls waiting for a thread (default ${DEFAULT-VALUE}, 0 - 65536).")
  int flightQueue = FlightExecutorConfig.DEFAULT_QUEUE;

  @Option(
      names = "--max-concurrent-queries",
      description =
          "Planning and streaming calls at once, all tenants (default ${DEFAULT-VALUE}, 1 -"
              + " 1024).")
  int maxConcurrentQueries = FrontDoorConfig.DEFAULT_MAX_CONCURRENT_QUERIES;

  @Option(
      names = "--max-concurrent-queries-per-tenant",
      description =
          "Planning and streaming calls at once per tenant (default ${DEFAULT-VALUE}, at most"
              + " --max-concurrent-queries).")
  int maxConcurrentQueriesPerTenant = FrontDoorConfig.DEFAULT_MAX_CONCURRENT_QUERIES_PER_TENANT;

  @Option(
      names = "--max-concurrent-part-downloads",
      description =
          "Durable result-part downloads at once, all tenants (default ${DEFAULT-VALUE}, 1 -"
              + " 1024); a gate of their own, they take no query slot.")
  int maxConcurrentPartDownloads = FrontDoorConfig.DEFAULT_MAX_CONCURRENT_PART_DOWNLOADS;

  @Option(
      names = "--max-concurrent-part-downloads-per-tenant",
      description =
          "Durable result-part downloads at once per tenant (default ${DEFAULT-VALUE}, at most"
              + " --max-concurrent-part-downloads).")
  int maxConcurrentPartDownloadsPerTenant =
      FrontDoorConfig.DEFAULT_MAX_CONCURRENT_PART_DOWNLOADS_PER_TENANT;

  @Option(
      names = "--queue-wait",
      description =
          "Longest wait for a query slot before UNAVAILABLE (ISO-8601, default ${DEFAULT-VALUE},"
              + " at most PT10M).")
  Duration queueWait = FrontDoorConfig.DEFAULT_QUEUE_WAIT;

  @Option(
      names = "--idle-stream-timeout",
      description =
          "Longest a client may leave a ready batch unread before its stream ends with TIMED_OUT"
              + " (ISO-8601, default ${DEFAULT-VALUE}, PT1S - PT1H).")
  Duration idleStreamTimeout = FrontDoorConfig.DEFAULT_IDLE_STREAM_TIMEOUT;

  @Option(
      names = "--max-sql-chars",
      description = "Longest SQL text admitted, in characters (default ${DEFAULT-VALUE}).")
  int maxSqlChars = AdmissionConfig.DEFAULT_MAX_SQL_CHARS;

  @Option(
      names = "--max-nesting-depth",
      description = "Deepest parenthesis nesting admitted (default ${DEFAULT-VALUE}, 8 - 512).")
  int maxNestingDepth = AdmissionConfig.DEFAULT_MAX_NESTING_DEPTH;

  @Option(
      names = "--max-list-items",
      description =
          "Most items in one select list, IN list or VALUES row (default ${DEFAULT-VALUE}, 16 -"
              + " 100000).")
  int maxListItems = AdmissionConfig.DEFAULT_MAX_LIST_ITEMS;

  @Option(
      names = "--sql-parser-connections",
      description = "Connections of SQL admission's private parser (default ${DEFAULT-VALUE}).")
  int parserConnections = AdmissionConfig.DEFAULT_PARSER_CONNECTIONS;

  @Option(
      names = "--sql-parser-memory-mb",
      description =
          "memory_limit of SQL admission's private parser, MiB (default ${DEFAULT-VALUE}).")
  long parserMemoryMb = AdmissionConfig.DEFAULT_PARSER_MEMORY_BYTES >> 20;

  @Option(
      names = "--budget-window",
      description =
          "Window of the per-tenant budgets, aligned to the epoch (ISO-8601, default"
              + " ${DEFAULT-VALUE}, PT1M - P31D).")
  Duration budgetWindow = BudgetConfig.DEFAULT_WINDOW;

  @Option(
      names = "--budget-scanned-mb",
      description =
          "MiB of table data one tenant's statements may scan per window (default 0 = unlimited).")
  long budgetScannedMb;

  @Option(
      names = "--budget-result-mb",
      description =
          "MiB of results one tenant's statements may produce per window (default 0 = unlimited).")
  long budgetResultMb;

  @Option(
      names = "--budget-egress-mb",
      description =
          "MiB lake may stream to one tenant per window, results and durable parts (default 0 ="
              + " unlimited).")
  long budgetEgressMb;

  /** The defaults, as when no flag or variable is given. */
  public static LimitOptions defaults() {
    return new LimitOptions();
  }

  /** Builds every config record these options feed: a bad value throws, naming it. */
  public void validate() {
    flightExecutor();
    applyTo(FrontDoorConfig.defaults());
    admission();
  }

  /** The executor that runs every Flight call. */
  FlightExecutorConfig flightExecutor() {
    return new FlightExecutorConfig(flightThreads, flightQueue);
  }

  /**
   * {@code config} with the admission and part-download gates and idle-stream timeout of these
   * options.
   */
  public FrontDoorConfig applyTo(FrontDoorConfig config) {
    return config
        .withLimits(maxConcurrentQueries, maxConcurrentQueriesPerTenant, queueWait)
        .withPartDownloadLimits(maxConcurrentPartDownloads, maxConcurrentPartDownloadsPerTenant)
        .withIdleStreamTimeout(idleStreamTimeout)
        .withBudgets(
            BudgetConfig.ofMebibytes(
                budgetWindow, budgetScannedMb, budgetResultMb, budgetEgressMb));
  }

  /** SQL admission's parse bounds. */
  public AdmissionConfig admission() {
    return new AdmissionConfig(
        maxSqlChars, maxNestingDepth, maxListItems, parserConnections, parserMemoryMb << 20);
  }
}
