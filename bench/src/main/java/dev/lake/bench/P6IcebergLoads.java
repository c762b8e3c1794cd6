package dev.lake.bench;

import dev.lake.bench.ClientSpec.Group;
import dev.lake.bench.ClientSpec.Kind;
import dev.lake.bench.ClientSpec.Side;
import dev.lake.iceberg.IcebergConfig;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.LongSupplier;

/**
 * P6: 1,000 concurrent GetFlightInfo on one Iceberg table nobody has read yet; counts the REST
 * {@code loadTable} calls the catalog server saw. Concurrent resolutions of one table must coalesce
 * into a single load. The figure counts the loads within Iceberg's {@code cacheFresh} (5 s) of the
 * first one: a resolution older than that is refreshed once in the background by design, so a burst
 * that outlasts the window (a loaded machine, SF 1) makes more loads without any failing to
 * coalesce; the note gives the burst's total.
 */
final class P6IcebergLoads implements Metric {
  @Override
  public String id() {
    return "P6";
  }

  @Override
  public String title() {
    return "1,000 concurrent GetFlightInfo on one cold Iceberg table: REST loadTable calls (target 1)";
  }

  @Override
  public List<Result> run(BenchContext context) throws Exception {
    Optional<LakeStack> lake = context.lake();
    Optional<String> missing =
        lake.isEmpty() ? Optional.of(context.lakeMissing()) : lake.get().icebergMissing();
    if (missing.isEmpty()) {
      missing = lake.get().loadTableCountMissing();
    }
    if (missing.isPresent()) {
      return List.of(
          Result.notAvailable(id(), "loadTable-calls", null, "calls", "target 1", missing.get()));
    }
    LakeStack l = lake.get();
    // One request alone first: how many loads does a single resolution cost?
    Loads single = loads(context, l, 1);
    long start = System.nanoTime();
    int n = context.config().concurrentRequests();
    Loads concurrent = loads(context, l, n);
    long wall = System.nanoTime() - start;
    String note =
        String.format(
            java.util.Locale.ROOT,
            "%d GetFlightInfo in %.0f ms wall (client JVM start included): %d loadTable call(s)"
                + " within %d s of the first, %d in all (a resolution older than that is refreshed"
                + " once in the background); a single GetFlightInfo on another cold table costs %d",
            n,
            wall / 1e6,
            concurrent.firstWindow(),
            FRESH.toSeconds(),
            concurrent.total(),
            single.total());
    return List.of(
        Result.measured(
            id(),
            "loadTable-calls",
            new Stats(concurrent.firstWindow(), concurrent.firstWindow(), 1),
            new Stats(1, 1, 1),
            "calls",
            "target: exactly 1 load for any number of concurrent resolutions",
            false,
            note));
  }

  /** Iceberg's window in which a resolution is served without asking the catalog. */
  private static final Duration FRESH = IcebergConfig.DEFAULT_CACHE_FRESH;

  /** Loads of one burst: all of them, and those within {@link #FRESH} of the first. */
  private record Loads(long total, long firstWindow) {}

  /** REST loadTable calls caused by {@code n} concurrent GetFlightInfo on a new cold table. */
  private static Loads loads(BenchContext context, LakeStack l, int n) throws Exception {
    String table = l.coldIcebergTable();
    long before = l.loadTableCalls(table);
    LongSupplier count = () -> l.loadTableCalls(table) - before;
    AtomicLong firstWindow = new AtomicLong(-1);
    Thread watcher = new Thread(() -> watchFirstWindow(count, firstWindow), "p6-window");
    watcher.setDaemon(true);
    watcher.start();
    try {
      context
          .clients()
          .run(
              new ClientSpec(
                  0,
                  1,
                  l.token(),
                  List.of(
                      new Group(
                          "p6",
                          n,
                          List.of(
                              Side.of(
                                  "lake",
                                  Kind.FLIGHT_SQL_INFO,
                                  l.uri(),
                                  "SELECT count(*) FROM " + table))))));
    } finally {
      watcher.interrupt();
      watcher.join();
    }
    long total = count.getAsLong();
    // a burst that ended within the window: every load it made counts
    return new Loads(total, firstWindow.get() < 0 ? total : firstWindow.get());
  }

  /**
   * Polls {@code count} until the first load, then records the count just before {@link #FRESH}
   * after it (when a background refresh may start) in {@code result}; stops early when interrupted
   * (the burst ended), leaving {@code result} at -1.
   */
  private static void watchFirstWindow(LongSupplier count, AtomicLong result) {
    try {
      while (count.getAsLong() == 0) {
        Thread.sleep(POLL_MILLIS);
      }
      Thread.sleep(FRESH.toMillis() - POLL_MILLIS);
      result.set(count.getAsLong());
    } catch (InterruptedException e) {
      // the burst ended first
    }
  }

  private static final long POLL_MILLIS = 20;
}
