package dev.lake.bench;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/** Writes a run's results: a table on stdout, results.jsonl, report.md and chart.svg. */
final class Report {
  private Report() {}

  static void write(
      BenchConfig config,
      Map<String, String> machine,
      List<String> titles,
      List<Result> results,
      List<String> log,
      PrintStream stdout)
      throws IOException {
    Files.createDirectories(config.out());
    List<String> lines = new ArrayList<>();
    for (Result r : results) {
      lines.add(r.toJsonLine());
    }
    Files.write(config.out().resolve("results.jsonl"), lines);
    String title =
        String.format(
            Locale.ROOT, "lake bench, TPC-H SF %s: lake vs baseline", trim(config.scaleFactor()));
    Files.writeString(config.out().resolve("chart.svg"), SvgChart.render(results, title));
    stdout.println(table(results));
    Files.writeString(
        config.out().resolve("report.md"), markdown(config, machine, titles, results, log));
  }

  /** The human-readable table. */
  static String table(List<Result> results) {
    StringBuilder s = new StringBuilder();
    String format = "%-4s %-22s %-14s %21s %21s %8s  %s%n";
    s.append(
        String.format(
            Locale.ROOT,
            format,
            "id",
            "variant",
            "status",
            "lake p50 / p95",
            "baseline p50 / p95",
            "ratio",
            "unit · note"));
    for (Result r : results) {
      s.append(
          String.format(
              Locale.ROOT,
              format,
              r.id(),
              r.variant(),
              r.status().name().toLowerCase(Locale.ROOT),
              pair(r.lake(), r.lakeP95()),
              pair(r.baseline(), r.baselineP95()),
              r.ratio().map(v -> String.format(Locale.ROOT, "%.2f×", v)).orElse("-"),
              r.unit() + (r.note().isEmpty() ? "" : " · " + r.note())));
    }
    return s.toString();
  }

  private static String markdown(
      BenchConfig config,
      Map<String, String> machine,
      List<String> titles,
      List<Result> results,
      List<String> log) {
    StringBuilder s = new StringBuilder();
    s.append("# lake bench report\n\n");
    s.append(
        String.format(
            Locale.ROOT,
            "TPC-H scale factor %s · %s · up to %d timed runs per side, interleaved · client"
                + " %s · Iceberg REST catalog in a JVM of its own\n\n",
            trim(config.scaleFactor()),
            config.warmups() == 0
                ? "no warm-up (--warmups 0: cold figures, a plumbing check)"
                : "warm-up of at least "
                    + config.warmups()
                    + " rounds, then until the medians settle (each note gives the warm-up used)",
            config.iterations(),
            config.forkClient() ? "in a separate JVM" : "in the server JVM"));
    s.append("## Machine\n\n| | |\n|---|---|\n");
    machine.forEach((k, v) -> s.append("| ").append(k).append(" | ").append(v).append(" |\n"));
    s.append("\n## Metrics\n\n");
    titles.forEach(t -> s.append("- ").append(t).append('\n'));
    s.append("\n## Results\n\n![ratios](chart.svg)\n\n");
    s.append(
            "| id | variant | status | lake p50 | lake p95 | baseline p50 | baseline p95 | ratio |")
        .append(" unit | baseline | note |\n");
    s.append("|---|---|---|---:|---:|---:|---:|---:|---|---|---|\n");
    for (Result r : results) {
      s.append(
          String.format(
              Locale.ROOT,
              "| %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s |%n",
              r.id(),
              r.variant(),
              r.status().name().toLowerCase(Locale.ROOT),
              num(r.lake()),
              num(r.lakeP95()),
              num(r.baseline()),
              num(r.baselineP95()),
              r.ratio().map(v -> String.format(Locale.ROOT, "%.2f", v)).orElse("–"),
              r.unit(),
              r.baselineLabel().replace("|", "/"),
              r.note().replace("|", "/").replace("\n", " ")));
    }
    if (!log.isEmpty()) {
      s.append("\n## Run log\n\n");
      log.forEach(l -> s.append("- ").append(l).append('\n'));
    }
    s.append("\nload average at end: ").append(MachineInfo.loadAverage()).append('\n');
    return s.toString();
  }

  private static String pair(Optional<Double> median, Optional<Double> p95) {
    if (median.isEmpty()) {
      return "-";
    }
    return num(median) + " / " + num(p95);
  }

  private static String num(Optional<Double> v) {
    return v.map(x -> String.format(Locale.ROOT, "%.4g", x)).orElse("–");
  }

  static String trim(double v) {
    return v == Math.rint(v) ? String.valueOf((long) v) : String.valueOf(v);
  }
}
