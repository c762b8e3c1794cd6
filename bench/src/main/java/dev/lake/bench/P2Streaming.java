package dev.lake.bench;

import dev.lake.bench.ClientSpec.Group;
import dev.lake.bench.ClientSpec.Kind;
import dev.lake.bench.ClientSpec.Outcome;
import dev.lake.bench.ClientSpec.Samples;
import dev.lake.bench.ClientSpec.Side;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * P2: streaming all of lineitem through DoGet, in MB/s of Arrow data received, against the raw
 * Flight server streaming the same rows from memory in 65,536-row batches (the engine's default
 * batch size) — the transport limit of this machine.
 */
final class P2Streaming implements Metric {
  static final String SQL = "SELECT * FROM lake.tpch.lineitem";
  static final int BATCH_ROWS = 65_536;

  @Override
  public String id() {
    return "P2";
  }

  @Override
  public String title() {
    return "stream all of lineitem through DoGet (MB/s of Arrow) vs raw Flight from memory";
  }

  @Override
  public List<Result> run(BenchContext context) throws Exception {
    BenchConfig config = context.config();
    RawFlightServer raw = context.raw();
    RawFlightServer.Dataset data =
        ArrowData.fromParquet(
            context.allocator(), context.parquet().resolve("lineitem.parquet"), BATCH_ROWS);
    long rawBytes = ArrowData.bytes(data);
    raw.put("lineitem", data);
    Outcome outcome;
    Optional<LakeStack> lake = context.lake();
    try {
      List<Side> sides = new ArrayList<>();
      lake.ifPresent(l -> sides.add(Side.of("lake", Kind.FLIGHT_SQL, l.uri(), SQL)));
      sides.add(Side.of("raw", Kind.FLIGHT, raw.uri(), "lineitem"));
      outcome =
          context
              .clients()
              .run(
                  config.spec(
                      lake.map(LakeStack::token).orElse("none"),
                      List.of(new Group("p2", 1, sides))));
    } finally {
      raw.remove("lineitem");
    }
    Samples r = outcome.get("p2", "raw");
    String label =
        String.format(
            Locale.ROOT,
            "raw Arrow Flight DoGet of the same rows from memory (%.0f MB)",
            rawBytes / 1e6);
    if (lake.isEmpty()) {
      return List.of(
          Result.notAvailable(
              id(), "lineitem", r.megabytesPerSecond(), "MB/s", label, context.lakeMissing()));
    }
    Samples l = outcome.get("p2", "lake");
    String note =
        String.format(
            Locale.ROOT,
            "target ≥ 0.9× raw; lake %d rows / %.0f MB in %.0f ms p50, raw %d rows in %.0f ms;"
                + " %d runs; %s",
            l.rows().get(0),
            l.bytes().get(0) / 1e6,
            l.millis().median(),
            r.rows().get(0),
            r.millis().median(),
            l.nanos().size(),
            outcome.warmupNote("p2"));
    return List.of(
        Result.measured(
            id(),
            "lineitem",
            l.megabytesPerSecond(),
            r.megabytesPerSecond(),
            "MB/s",
            label,
            true,
            note));
  }
}
