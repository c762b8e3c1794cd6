package dev.lake.bench;

import dev.lake.bench.ClientSpec.Group;
import dev.lake.bench.ClientSpec.Kind;
import dev.lake.bench.ClientSpec.Samples;
import dev.lake.bench.ClientSpec.Side;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/**
 * M1: peak memory of the server process (this JVM: lake's front door and engine) while 10 clients
 * in the client JVM stream all of lineitem at once, against the engine's configured memory limit.
 * Heap + direct covers the JVM's Arrow/gRPC buffers; RSS adds DuckDB's native memory.
 */
final class M1Memory implements Metric {
  static final int CLIENTS = 10;

  @Override
  public String id() {
    return "M1";
  }

  @Override
  public String title() {
    return "peak heap + direct and process RSS while "
        + CLIENTS
        + " clients stream lineitem at once vs the engine memory limit";
  }

  @Override
  public List<Result> run(BenchContext context) throws Exception {
    Optional<LakeStack> lake = context.lake();
    if (lake.isEmpty()) {
      String why = context.lakeMissing();
      return List.of(
          Result.notAvailable(id(), "heap+direct", null, "MiB", "engine memory limit", why),
          Result.notAvailable(id(), "rss", null, "MiB", "engine memory limit", why));
    }
    LakeStack l = lake.get();
    System.gc();
    long rssBefore = MemorySampler.rssBytes();
    Samples s;
    MemorySampler sampler = new MemorySampler();
    try {
      s =
          context
              .clients()
              .run(
                  new ClientSpec(
                      0,
                      1,
                      l.token(),
                      List.of(
                          new Group(
                              "m1",
                              CLIENTS,
                              List.of(
                                  new Side(
                                      "lake",
                                      Kind.FLIGHT_SQL,
                                      l.uri(),
                                      P2Streaming.SQL,
                                      Map.of("retryBusy", "true")))))))
              .get("m1", "lake");
    } finally {
      sampler.close();
    }
    // what stays resident once the clients are done: freed memory the allocators kept (glibc malloc
    // arenas up to MALLOC_TRIM_THRESHOLD_ each, Netty's pools, the JVM heap)
    System.gc();
    long rssAfter = MemorySampler.rssBytes();
    double limit = l.engineMemoryLimitBytes() / 1048576.0;
    Stats lim = new Stats(limit, limit, 1);
    double heapDirect = sampler.peakHeapPlusDirect() / 1048576.0;
    double rss = sampler.peakRss() / 1048576.0;
    String note =
        String.format(
            Locale.ROOT,
            "%d clients, %d rows, %.0f MB in %.1f s; peak heap %.0f MiB, direct %.0f MiB;"
                + " RSS before %.0f MiB, after %.0f MiB; MALLOC_TRIM_THRESHOLD_=%s; no OOM",
            CLIENTS,
            s.rows().get(0),
            s.bytes().get(0) / 1e6,
            s.millis().median() / 1e3,
            sampler.peakHeap() / 1048576.0,
            sampler.peakDirect() / 1048576.0,
            rssBefore / 1048576.0,
            rssAfter / 1048576.0,
            Optional.ofNullable(System.getenv("MALLOC_TRIM_THRESHOLD_")).orElse("glibc default"));
    String label = "engine memory_limit (DuckDB)";
    return List.of(
        Result.measured(
            id(),
            "heap+direct",
            new Stats(heapDirect, heapDirect, 1),
            lim,
            "MiB",
            label,
            false,
            note),
        Result.measured(id(), "rss", new Stats(rss, rss, 1), lim, "MiB", label, false, note));
  }
}
