package dev.lake.bench;

import java.util.Collection;
import java.util.List;
import org.openjdk.jmh.results.RunResult;
import org.openjdk.jmh.runner.Runner;
import org.openjdk.jmh.runner.options.OptionsBuilder;
import org.openjdk.jmh.runner.options.TimeValue;
import org.openjdk.jmh.runner.options.VerboseMode;
import org.openjdk.jmh.util.Statistics;

/** P5: ticket seal + open latency under JMH, against bare AES-GCM of the same bytes. */
final class P5TicketSeal implements Metric {
  @Override
  public String id() {
    return "P5";
  }

  @Override
  public String title() {
    return "statement ticket seal + open (JMH, TicketSealer + LocalKeyRing, no remote calls)"
        + " vs bare AES-256-GCM encrypt + decrypt of the same size";
  }

  @Override
  public List<Result> run(BenchContext context) throws Exception {
    int seconds = context.config().jmhSeconds();
    OptionsBuilder options = new OptionsBuilder();
    options
        .include(TicketBench.class.getName() + "\\.")
        .verbosity(VerboseMode.SILENT)
        .shouldFailOnError(true);
    if (seconds == 0) {
      options
          .forks(0)
          .warmupIterations(1)
          .warmupTime(TimeValue.milliseconds(100))
          .measurementIterations(1)
          .measurementTime(TimeValue.milliseconds(200));
    } else {
      options
          .forks(1)
          .warmupIterations(2)
          .warmupTime(TimeValue.seconds(seconds))
          .measurementIterations(3)
          .measurementTime(TimeValue.seconds(seconds));
    }
    Collection<RunResult> runs = new Runner(options.build()).run();
    Stats lake = null;
    Stats floor = null;
    for (RunResult run : runs) {
      Statistics s = run.getPrimaryResult().getStatistics();
      Stats stats =
          new Stats(
              s.getPercentile(50),
              s.getPercentile(95),
              (int) Math.min(s.getN(), Integer.MAX_VALUE));
      if (run.getParams().getBenchmark().endsWith("sealAndOpen")) {
        lake = stats;
      } else {
        floor = stats;
      }
    }
    if (lake == null || floor == null) {
      throw new IllegalStateException("JMH returned no results for TicketBench");
    }
    return List.of(
        Result.measured(
            id(),
            "seal+open",
            lake,
            floor,
            "µs",
            "AES-256-GCM encrypt+decrypt of the same bytes (JDK)",
            false,
            String.format(
                java.util.Locale.ROOT,
                "target ≤ 20 µs; %d samples; key ring in memory, 0 remote calls",
                lake.count())));
  }
}
