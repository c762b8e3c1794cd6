package dev.lake.bench;

import dev.lake.bench.ClientSpec.Group;
import dev.lake.bench.ClientSpec.Kind;
import dev.lake.bench.ClientSpec.Outcome;
import dev.lake.bench.ClientSpec.Side;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * P1: a small query's round trip (GetFlightInfo + DoGet of the 25 nation rows, warm caches) through
 * lake's Flight SQL front door, against (a) the raw Flight floor serving the same rows from memory
 * and (b) the same SQL in in-process DuckDB over the Parquet file (run in the client JVM); and the
 * same query through the Flight SQL JDBC driver against (c) the JDBC floor ({@link FlightSqlFloor}:
 * the driver's four RPCs answered from memory), whose p50 says whether the absolute JDBC target is
 * reachable through this driver on this machine at all. All sides interleave in one group.
 */
final class P1RoundTrip implements Metric {
  static final String SQL = "SELECT * FROM lake.tpch.nation";

  @Override
  public String id() {
    return "P1";
  }

  @Override
  public String title() {
    return "small query round trip ("
        + SQL
        + ", GetFlightInfo + DoGet) vs raw Flight and DuckDB; through the JDBC driver vs the"
        + " driver's floor";
  }

  @Override
  public List<Result> run(BenchContext context) throws Exception {
    BenchConfig config = context.config();
    RawFlightServer raw = context.raw();
    Path nation = context.parquet().resolve("nation.parquet");
    raw.put("nation", ArrowData.fromParquet(context.allocator(), nation, 65_536));
    Optional<LakeStack> lake = context.lake();
    String token = lake.map(LakeStack::token).orElse("none");
    Outcome outcome;
    try (FlightSqlFloor floor =
        FlightSqlFloor.start(
            context.allocator(),
            SQL,
            ArrowData.fromParquet(context.allocator(), nation, 65_536),
            token)) {
      List<Side> sides = new ArrayList<>();
      lake.ifPresent(l -> sides.add(Side.of("lake", Kind.FLIGHT_SQL, l.uri(), SQL)));
      lake.ifPresent(l -> sides.add(Side.of("jdbc", Kind.JDBC, l.uri(), SQL)));
      sides.add(Side.of("raw", Kind.FLIGHT, raw.uri(), "nation"));
      sides.add(Side.of("jdbc-floor", Kind.JDBC, floor.uri(), SQL));
      sides.add(Side.of("duckdb", Kind.DUCKDB, context.parquet().toString(), SQL));
      outcome =
          context
              .clients()
              .run(
                  new ClientSpec(
                      config.smallWarmups(),
                      config.smallIterations(),
                      token,
                      List.of(new Group("p1", 1, sides)),
                      0,
                      config.warmup(true)));
    } finally {
      raw.remove("nation");
    }
    Stats rawStats = outcome.get("p1", "raw").millis();
    Stats duck = outcome.get("p1", "duckdb").millis();
    Stats floor = outcome.get("p1", "jdbc-floor").millis();
    String rawLabel = "raw Arrow Flight server, same 25 rows from memory (transport floor)";
    String duckLabel = "in-process DuckDB, same SQL over read_parquet view";
    String floorLabel =
        "minimal Flight SQL server through the same JDBC driver: its four RPCs answered from"
            + " memory, same 25 rows, bearer token compared with one string (the driver's floor)";
    if (lake.isEmpty()) {
      String why = context.lakeMissing();
      return List.of(
          Result.notAvailable(id(), "vs-raw-flight", rawStats, "ms", rawLabel, why),
          Result.notAvailable(id(), "vs-duckdb", duck, "ms", duckLabel, why),
          Result.notAvailable(id(), "jdbc-vs-jdbc-floor", floor, "ms", floorLabel, why));
    }
    ClientSpec.Samples l = outcome.get("p1", "lake");
    Stats lakeStats = l.millis();
    String note =
        String.format(
            Locale.ROOT,
            "target p50 ≤ 1.5× raw and ≤ 3 ms; %d runs; %d rows; %s",
            lakeStats.count(),
            l.rows().get(0),
            outcome.warmupNote("p1"));
    Stats jdbc = outcome.get("p1", "jdbc").millis();
    String jdbcNote =
        String.format(
            Locale.ROOT,
            "lake through the Flight SQL JDBC driver (executeQuery prepares: CreatePreparedStatement,"
                + " GetFlightInfo, DoGet, ClosePreparedStatement; every value read); target p50 ≤ 5"
                + " ms; %d runs; %s",
            jdbc.count(),
            outcome.warmupNote("p1"));
    String floorNote =
        String.format(
            Locale.ROOT,
            "absolute target p50 ≤ 5 ms: lake %.2f ms, the driver's floor %.2f ms (%s in this"
                + " run); %d runs; %s",
            jdbc.median(),
            floor.median(),
            floor.median() <= 5 ? "the floor is within 5 ms" : "even the floor is above 5 ms",
            jdbc.count(),
            outcome.warmupNote("p1"));
    return List.of(
        Result.measured(id(), "vs-raw-flight", lakeStats, rawStats, "ms", rawLabel, false, note),
        Result.measured(id(), "vs-duckdb", lakeStats, duck, "ms", duckLabel, false, note),
        Result.measured(
            id(), "jdbc-vs-raw-flight", jdbc, rawStats, "ms", rawLabel, false, jdbcNote),
        Result.measured(
            id(), "jdbc-vs-jdbc-floor", jdbc, floor, "ms", floorLabel, false, floorNote));
  }
}
