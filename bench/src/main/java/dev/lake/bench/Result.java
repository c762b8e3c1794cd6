package dev.lake.bench;

import static java.util.Objects.requireNonNull;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.Optional;

/**
 * One reported figure: the lake measurement against its baseline from the same run. A part whose
 * lake side does not exist yet is reported {@link Status#NOT_AVAILABLE} with the reason, never with
 * a made-up number; the baseline may still be measured.
 *
 * @param id the metric id (P1 … M1)
 * @param variant what is compared, e.g. {@code vs-raw-flight} or {@code Q1-lance}
 * @param lake median of the lake side, in {@code unit}
 * @param lakeP95 95th percentile of the lake side
 * @param baseline median of the baseline, in {@code unit}
 * @param baselineP95 95th percentile of the baseline
 * @param baselineLabel what the baseline is
 * @param higherIsBetter true for throughput-like units (MB/s, speedup)
 * @param note free text (sample count, reason for not available, observations)
 */
public record Result(
    String id,
    String variant,
    Status status,
    Optional<Double> lake,
    Optional<Double> lakeP95,
    Optional<Double> baseline,
    Optional<Double> baselineP95,
    String unit,
    String baselineLabel,
    boolean higherIsBetter,
    String note) {
  private static final ObjectMapper JSON = new ObjectMapper();

  /** Whether the lake side was measured. */
  public enum Status {
    MEASURED,
    NOT_AVAILABLE,
    /** The bench or a lake part failed while measuring; the note says how. */
    FAILED
  }

  public Result {
    requireNonNull(id, "id is null");
    requireNonNull(variant, "variant is null");
    requireNonNull(status, "status is null");
    requireNonNull(lake, "lake is null");
    requireNonNull(lakeP95, "lakeP95 is null");
    requireNonNull(baseline, "baseline is null");
    requireNonNull(baselineP95, "baselineP95 is null");
    requireNonNull(unit, "unit is null");
    requireNonNull(baselineLabel, "baselineLabel is null");
    requireNonNull(note, "note is null");
    if (status == Status.MEASURED && lake.isEmpty()) {
      throw new IllegalArgumentException("a measured result needs a lake figure");
    }
  }

  public static Result measured(
      String id,
      String variant,
      Stats lake,
      Stats baseline,
      String unit,
      String baselineLabel,
      boolean higherIsBetter,
      String note) {
    return new Result(
        id,
        variant,
        Status.MEASURED,
        Optional.of(lake.median()),
        Optional.of(lake.p95()),
        Optional.ofNullable(baseline).map(Stats::median),
        Optional.ofNullable(baseline).map(Stats::p95),
        unit,
        baselineLabel,
        higherIsBetter,
        note);
  }

  /** The lake side is missing; {@code baseline} (may be null) was still measured. */
  public static Result notAvailable(
      String id, String variant, Stats baseline, String unit, String baselineLabel, String reason) {
    return new Result(
        id,
        variant,
        Status.NOT_AVAILABLE,
        Optional.empty(),
        Optional.empty(),
        Optional.ofNullable(baseline).map(Stats::median),
        Optional.ofNullable(baseline).map(Stats::p95),
        unit,
        baselineLabel,
        false,
        reason);
  }

  /** The metric threw; {@code message} says what failed. */
  public static Result failed(String id, String variant, String unit, String message) {
    return new Result(
        id,
        variant,
        Status.FAILED,
        Optional.empty(),
        Optional.empty(),
        Optional.empty(),
        Optional.empty(),
        unit,
        "",
        false,
        message);
  }

  /** This result with {@code more} appended to its note ({@code "; "} between). */
  public Result withNote(String more) {
    return new Result(
        id,
        variant,
        status,
        lake,
        lakeP95,
        baseline,
        baselineP95,
        unit,
        baselineLabel,
        higherIsBetter,
        note.isEmpty() ? more : note + "; " + more);
  }

  /**
   * lake / baseline (medians); read it with {@link #higherIsBetter}: for times a ratio above 1 is
   * lake's overhead, for throughputs a ratio below 1 is the share of the limit lake reaches. Empty
   * when either side is missing.
   */
  public Optional<Double> ratio() {
    if (lake.isEmpty() || baseline.isEmpty() || baseline.get() <= 0 || lake.get() <= 0) {
      return Optional.empty();
    }
    return Optional.of(lake.get() / baseline.get());
  }

  /** One JSON line: {@code {"id":"P1","lake":…,"baseline":…,"ratio":…,"unit":…,"p95":…}}. */
  public String toJsonLine() {
    ObjectNode n = JSON.createObjectNode();
    n.put("id", id);
    n.put("variant", variant);
    n.put("status", status.name().toLowerCase(java.util.Locale.ROOT));
    putNumber(n, "lake", lake);
    putNumber(n, "baseline", baseline);
    putNumber(n, "ratio", ratio());
    n.put("unit", unit);
    putNumber(n, "p95", lakeP95);
    putNumber(n, "baseline_p95", baselineP95);
    n.put("baseline_label", baselineLabel);
    n.put("higher_is_better", higherIsBetter);
    n.put("note", note);
    return n.toString();
  }

  private static void putNumber(ObjectNode n, String field, Optional<Double> value) {
    if (value.isPresent()) {
      n.put(field, round(value.get()));
    } else {
      n.putNull(field);
    }
  }

  static double round(double v) {
    if (v == 0 || Double.isNaN(v) || Double.isInfinite(v)) {
      return v;
    }
    double scale = Math.pow(10, 4 - (int) Math.ceil(Math.log10(Math.abs(v))));
    return Math.round(v * scale) / scale;
  }
}
