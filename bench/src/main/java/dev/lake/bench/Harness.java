package dev.lake.bench;

import java.io.PrintStream;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/** Runs the selected metrics in a fixed order and writes the report. */
public final class Harness {
  private Harness() {}

  /** Every metric, in run order (M1 last: it measures memory after everything else ran). */
  static List<Metric> all() {
    return List.of(
        new P5TicketSeal(),
        new P1RoundTrip(),
        new P2Streaming(),
        new P3TpchQueries(),
        new P4Async(),
        new P6IcebergLoads(),
        new P7FanOut(),
        new P8ObjectStorage(),
        new M1Memory());
  }

  /** Runs the bench; returns the results also written to {@code config.out()}. */
  public static List<Result> run(BenchConfig config, PrintStream stdout) throws Exception {
    Map<String, String> machine = MachineInfo.describe();
    List<Result> results = new ArrayList<>();
    List<String> titles = new ArrayList<>();
    try (BenchContext context = new BenchContext(config)) {
      for (Metric metric : all()) {
        if (!config.runs(metric.id())) {
          continue;
        }
        titles.add(metric.id() + ": " + metric.title());
        long start = System.nanoTime();
        context.note("%s: %s", metric.id(), metric.title());
        // every figure says under which load it was measured (this machine kind is shared)
        String loadBefore = MachineInfo.oneMinuteLoad();
        List<Result> these;
        try {
          these = metric.run(context);
        } catch (Exception | Error e) {
          String message = e.getClass().getSimpleName() + ": " + e.getMessage();
          context.note("%s failed: %s", metric.id(), message);
          e.printStackTrace();
          these = List.of(Result.failed(metric.id(), "all", "", message));
        }
        String load = "load " + loadBefore + " → " + MachineInfo.oneMinuteLoad();
        these.forEach(r -> results.add(r.withNote(load)));
        context.note("%s done in %.1f s", metric.id(), (System.nanoTime() - start) / 1e9);
      }
      Report.write(config, machine, titles, results, context.log(), stdout);
    }
    return results;
  }
}
