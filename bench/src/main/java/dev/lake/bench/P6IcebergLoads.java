package dev.lake.bench;

import dev.lake.bench.ClientSpec.Group;
import dev.lake.bench.ClientSpec.Kind;
import dev.lake.bench.ClientSpec.Side;
import java.util.List;
import java.util.Optional;

/**
 * P6: 1,000 concurrent GetFlightInfo on one Iceberg table nobody has read yet; counts the REST
 * {@code loadTable} calls the catalog server saw. Concurrent resolutions of one table must coalesce
 * into a single load.
 */
final class P6IcebergLoads implements Metric {
  static final int CONCURRENT = 1000;

  @Override
  public String id() {
    return "P6";
  }

  @Override
  public String title() {
    return CONCURRENT
        + " concurrent GetFlightInfo on one cold Iceberg table: REST loadTable calls (target 1)";
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
    String table = l.coldIcebergTable();
    long before = l.loadTableCalls(table);
    ClientSpec.Samples s =
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
                            CONCURRENT,
                            List.of(
                                Side.of(
                                    "lake",
                                    Kind.FLIGHT_SQL_INFO,
                                    l.uri(),
                                    "SELECT count(*) FROM " + table))))))
            .get("p6", "lake");
    long calls = l.loadTableCalls(table) - before;
    return List.of(
        Result.measured(
            id(),
            "loadTable-calls",
            new Stats(calls, calls, 1),
            new Stats(1, 1, 1),
            "calls",
            "target: exactly 1 load for any number of concurrent resolutions",
            false,
            String.format(
                java.util.Locale.ROOT,
                "%d GetFlightInfo in %.0f ms wall",
                CONCURRENT,
                s.millis().median())));
  }
}
