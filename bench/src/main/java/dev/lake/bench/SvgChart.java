package dev.lake.bench;

import java.util.List;
import java.util.Locale;

/**
 * A bar chart of lake / baseline ratios, written as plain SVG. The axis is logarithmic and bars
 * grow from parity (1.0): right of the line lake takes more (time) or delivers more (throughput)
 * than its baseline, left of it less.
 */
final class SvgChart {
  private static final int LABEL_WIDTH = 230;
  private static final int PLOT_WIDTH = 520;
  private static final int ROW = 22;
  private static final int TOP = 40;

  private SvgChart() {}

  static String render(List<Result> results, String title) {
    List<Result> bars = results.stream().filter(r -> r.ratio().isPresent()).toList();
    double lo = 0.5;
    double hi = 2;
    for (Result r : bars) {
      lo = Math.min(lo, r.ratio().get() / 1.3);
      hi = Math.max(hi, r.ratio().get() * 1.3);
    }
    double logLo = Math.log10(lo);
    double logHi = Math.log10(hi);
    int height = TOP + Math.max(1, bars.size()) * ROW + 50;
    int width = LABEL_WIDTH + PLOT_WIDTH + 90;
    StringBuilder s = new StringBuilder();
    s.append(
        fmt(
            "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\""
                + " font-family=\"sans-serif\" font-size=\"12\">\n",
            width, height));
    s.append(fmt("<rect width=\"%d\" height=\"%d\" fill=\"white\"/>\n", width, height));
    s.append(fmt("<text x=\"10\" y=\"22\" font-size=\"15\">%s</text>\n", escape(title)));
    double x1 = x(1.0, logLo, logHi);
    int plotBottom = TOP + bars.size() * ROW;
    for (double tick : new double[] {0.1, 0.25, 0.5, 1, 2, 4, 10, 25, 100}) {
      if (tick < lo || tick > hi) {
        continue;
      }
      double tx = x(tick, logLo, logHi);
      s.append(
          fmt(
              "<line x1=\"%.1f\" y1=\"%d\" x2=\"%.1f\" y2=\"%d\" stroke=\"#ddd\"/>\n",
              tx, TOP - 5, tx, plotBottom));
      s.append(
          fmt(
              "<text x=\"%.1f\" y=\"%d\" text-anchor=\"middle\" fill=\"#555\">%s×</text>\n",
              tx, plotBottom + 16, trim(tick)));
    }
    for (int i = 0; i < bars.size(); i++) {
      Result r = bars.get(i);
      double ratio = r.ratio().get();
      int y = TOP + i * ROW;
      double xr = x(ratio, logLo, logHi);
      String color = r.higherIsBetter() ? "#3b7dd8" : "#e08a2c";
      s.append(
          fmt(
              "<text x=\"%d\" y=\"%d\" text-anchor=\"end\">%s</text>\n",
              LABEL_WIDTH - 8, y + 15, escape(r.id() + " " + r.variant())));
      s.append(
          fmt(
              "<rect x=\"%.1f\" y=\"%d\" width=\"%.1f\" height=\"%d\" fill=\"%s\"/>\n",
              Math.min(x1, xr), y + 3, Math.max(1, Math.abs(xr - x1)), ROW - 6, color));
      s.append(
          fmt(
              "<text x=\"%.1f\" y=\"%d\">%s×</text>\n",
              Math.max(x1, xr) + 4, y + 15, fmt("%.2f", ratio)));
    }
    s.append(
        fmt(
            "<line x1=\"%.1f\" y1=\"%d\" x2=\"%.1f\" y2=\"%d\" stroke=\"black\"/>\n",
            x1, TOP - 5, x1, plotBottom));
    s.append(
        fmt(
            "<text x=\"10\" y=\"%d\" fill=\"#555\">ratio = lake / baseline (medians, log axis)."
                + " <tspan fill=\"#e08a2c\">■</tspan> time: right of 1 is lake's overhead."
                + " <tspan fill=\"#3b7dd8\">■</tspan> throughput/speedup: left of 1 is below"
                + " the limit.</text>\n",
            plotBottom + 38));
    s.append("</svg>\n");
    return s.toString();
  }

  private static double x(double ratio, double logLo, double logHi) {
    return LABEL_WIDTH + (Math.log10(ratio) - logLo) / (logHi - logLo) * PLOT_WIDTH;
  }

  private static String trim(double v) {
    return v == Math.rint(v) ? String.valueOf((long) v) : String.valueOf(v);
  }

  private static String fmt(String format, Object... args) {
    return String.format(Locale.ROOT, format, args);
  }

  static String escape(String text) {
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;");
  }
}
