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
    long single = loads(context, l, 1);
    long[] concurrent = new long[2];
    long start = System.nanoTime();
    int n = context.config().concurrentRequests();
    concurrent[0] = loads(context, l, n);
    concurrent[1] = System.nanoTime() - start;
    String note =
        String.format(
            java.util.Locale.ROOT,
            "%d GetFlightInfo in %.0f ms wall (client JVM start included); a single GetFlightInfo"
                + " on another cold table costs %d loadTable call(s)",
            n,
            concurrent[1] / 1e6,
            single);
    return List.of(
        Result.measured(
            id(),
            "loadTable-calls",
            new Stats(concurrent[0], concurrent[0], 1),
            new Stats(1, 1, 1),
            "calls",
            "target: exactly 1 load for any number of concurrent resolutions",
            false,
            note));
  }

  /** REST loadTable calls caused by {@code n} concurrent GetFlightInfo on a new cold table. */
  private static long loads(BenchContext context, LakeStack l, int n) throws Exception {
    String table = l.coldIcebergTable();
    long before = l.loadTableCalls(table);
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
    return l.loadTableCalls(table) - before;
  }
}
