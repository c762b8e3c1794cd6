package dev.lake.bench;

import com.google.protobuf.Any;
import dev.lake.app.LocalDurableServer;
import dev.lake.app.Wiring;
import dev.lake.core.CatalogPlugin;
import dev.lake.core.local.FileRegistry;
import dev.lake.core.local.LocalKeyRing;
import dev.lake.durable.DurableTierConfig;
import dev.lake.engine.EngineConfig;
import dev.lake.engine.ResultReuseConfig;
import dev.lake.frontdoor.Components;
import dev.lake.frontdoor.FrontDoorConfig;
import dev.lake.frontdoor.PrincipalEntry;
import dev.lake.frontdoor.Principals;
import dev.lake.lance.LanceFormat;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.UUID;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.apache.arrow.flight.CallHeaders;
import org.apache.arrow.flight.FlightCallHeaders;
import org.apache.arrow.flight.FlightClient;
import org.apache.arrow.flight.FlightDescriptor;
import org.apache.arrow.flight.FlightEndpoint;
import org.apache.arrow.flight.FlightStream;
import org.apache.arrow.flight.HeaderCallOption;
import org.apache.arrow.flight.Location;
import org.apache.arrow.flight.PollInfo;
import org.apache.arrow.flight.sql.impl.FlightSql.CommandStatementQuery;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;

/**
 * P7: durable fan-out. A large {@code SELECT … WHERE} export of lineitem (five columns, about 70%
 * of the rows) submitted with PollFlightInfo and polled to SUCCEEDED, on a local durable tier over
 * the bench's Lance data: as one job (the baseline), as 2, 4 and 8 splits on one worker (the work
 * split and what each split costs on top), and as 2, 4 and 8 splits on as many workers (the wall
 * time; on a 2-core machine at most 2× can show). Then the fanned-out result's parts downloaded
 * with 4 parallel DoGets against 1 (aggregate MB/s). Each configuration is its own server (fresh
 * job store and results) over one engine, warmed by one untimed run.
 */
final class P7FanOut implements Metric {
  static final String EXPORT =
      "SELECT l_orderkey, l_partkey, l_suppkey, l_extendedprice, l_shipdate"
          + " FROM lake.tpch.lineitem WHERE l_shipdate >= DATE '1994-01-01'";

  /** (splits, workers): the baseline first. */
  static final int[][] SHAPES = {{1, 1}, {2, 1}, {4, 1}, {8, 1}, {2, 2}, {4, 4}, {8, 8}};

  @Override
  public String id() {
    return "P7";
  }

  @Override
  public String title() {
    return "durable fan-out: lineitem SELECT … WHERE export as 1 job vs 2/4/8 splits on 1 worker"
        + " (per-split cost) and on 2/4/8 workers (wall), then parts with 4 vs 1 DoGets";
  }

  @Override
  public List<Result> run(BenchContext context) throws Exception {
    BenchConfig config = context.config();
    Path lance = config.dataDir().resolve("lance");
    Path registryFile = lance.resolve("registry.json");
    long lineitemRows = (long) Math.ceil(6_001_215 * config.scaleFactor());
    int runs = Math.max(1, Math.min(config.iterations(), 3));
    List<Result> out = new ArrayList<>();
    try (BufferAllocator allocator = new RootAllocator()) {
      Files.createDirectories(lance);
      FileRegistry registry = new FileRegistry(registryFile);
      // the bench's Lance data (kept per scale factor; generated once if missing)
      dev.lake.lance.demo.TpchDemo.generate(lance, config.scaleFactor(), registry, allocator);
      List<CatalogPlugin> catalogs =
          List.of(LanceFormat.catalog(registry, allocator, Duration.ofSeconds(1)));
      EngineConfig engine = EngineConfig.defaults(config.dataDir().resolve("spill-p7"));
      try (Components components =
          Wiring.components(
              allocator, engine, ResultReuseConfig.off(), LocalKeyRing.ephemeral(), catalogs)) {
        String token = LocalLakeStack.newToken();
        Principals principals =
            new Principals(
                List.of(
                    new PrincipalEntry(
                        Principals.sha256Hex(token), "bench", "bench", List.of("lake.tpch"))));
        Stats baseline = null;
        for (int[] shape : SHAPES) {
          int splits = shape[0];
          int workers = shape[1];
          Path durable = config.dataDir().resolve("durable-p7");
          deleteTree(durable);
          Files.createDirectories(durable);
          try (LocalDurableServer server =
                  LocalDurableServer.start(
                      FrontDoorConfig.defaults().withListener("127.0.0.1", 0),
                      components,
                      principals,
                      Clock.systemUTC(),
                      durable,
                      tier(config.scaleFactor(), workers, splits, lineitemRows));
              FlightClient client =
                  FlightClient.builder(
                          allocator, Location.forGrpcInsecure("127.0.0.1", server.server().port()))
                      .build()) {
            if (config.warmups() > 0) {
              export(client, token); // warm-up, untimed
            }
            double[] wall = new double[runs];
            PollInfo last = null;
            for (int r = 0; r < runs; r++) {
              long start = System.nanoTime();
              last = export(client, token);
              wall[r] = (System.nanoTime() - start) / 1e6;
            }
            Stats stats = Stats.of(wall);
            String variant = "export-" + splits + "s-" + workers + "w";
            // how many child jobs the runs made (0 when the table has too few fragments to split)
            long children =
                new dev.lake.core.local.FileJobStore(durable.resolve("jobs"))
                        .ids().stream().filter(id -> id.contains("-f1-")).count()
                    / (runs + (config.warmups() > 0 ? 1 : 0));
            if (baseline == null) {
              baseline = stats;
              context.note(
                  "P7 export: %d rows selected of %d, %d parts, baseline %.0f ms",
                  last.getFlightInfo().getRecords(),
                  lineitemRows,
                  last.getFlightInfo().getEndpoints().size(),
                  stats.median());
              continue;
            }
            double perSplit =
                workers == 1 ? (stats.median() - baseline.median()) / (splits - 1) : Double.NaN;
            out.add(
                Result.measured(
                    id(),
                    variant,
                    stats,
                    baseline,
                    "ms",
                    "1 job on 1 worker",
                    false,
                    String.format(
                        Locale.ROOT,
                        "%d splits asked (%d child jobs per run) on %d in-process workers, %d timed"
                            + " runs after %d warm-up%s",
                        splits,
                        children,
                        workers,
                        runs,
                        config.warmups() > 0 ? 1 : 0,
                        workers == 1
                            ? String.format(Locale.ROOT, "; cost per extra split %.0f ms", perSplit)
                            : "")));
            if (splits == 8 && workers == 8) {
              out.add(download(context, client, token, last, runs));
            }
          }
        }
      }
    }
    return out;
  }

  private static DurableTierConfig tier(
      double scaleFactor, int workers, int splits, long lineitemRows) {
    DurableTierConfig base = LocalLakeStack.benchDurable(scaleFactor).withWorkers(workers);
    return base.withWorker(
        base.worker()
            .withMaxFanOut(splits)
            .withSplitRows(Math.max(1_000, (lineitemRows + splits - 1) / splits))
            .withMaxRunning(Math.max(1, workers))
            .withMaxRunningPerTenant(Math.max(1, workers))
            .withRetryDelay(Duration.ofMillis(200)));
  }

  /** Submits the export under a fresh submission id and polls it to its end. */
  private static PollInfo export(FlightClient client, String token) {
    FlightCallHeaders headers = new FlightCallHeaders();
    headers.insert("authorization", "Bearer " + token);
    headers.insert("x-lake-submission-id", UUID.randomUUID().toString());
    HeaderCallOption submit = new HeaderCallOption(headers);
    CallHeaders auth = new FlightCallHeaders();
    auth.insert("authorization", "Bearer " + token);
    HeaderCallOption bearer = new HeaderCallOption(auth);
    PollInfo info =
        client.pollInfo(
            FlightDescriptor.command(
                Any.pack(CommandStatementQuery.newBuilder().setQuery(EXPORT).build())
                    .toByteArray()),
            submit);
    long deadline = System.nanoTime() + Duration.ofMinutes(15).toNanos();
    while (info.getFlightDescriptor().isPresent()) {
      if (System.nanoTime() > deadline) {
        throw new IllegalStateException("the P7 export did not finish within 15 minutes");
      }
      info = client.pollInfo(info.getFlightDescriptor().get(), bearer);
    }
    return info;
  }

  /** Every part of {@code done} with {@code parallel} DoGets at once; bytes per second. */
  private static double downloadRate(FlightClient client, String token, PollInfo done, int parallel)
      throws Exception {
    CallHeaders auth = new FlightCallHeaders();
    auth.insert("authorization", "Bearer " + token);
    HeaderCallOption bearer = new HeaderCallOption(auth);
    ExecutorService pool = Executors.newFixedThreadPool(parallel);
    try {
      long start = System.nanoTime();
      List<Future<Long>> parts = new ArrayList<>();
      for (FlightEndpoint e : done.getFlightInfo().getEndpoints()) {
        parts.add(
            pool.submit(
                () -> {
                  long bytes = 0;
                  try (FlightStream s = client.getStream(e.getTicket(), bearer)) {
                    while (s.next()) {
                      for (var v : s.getRoot().getFieldVectors()) {
                        bytes += v.getBufferSize();
                      }
                    }
                  }
                  return bytes;
                }));
      }
      long bytes = 0;
      for (Future<Long> f : parts) {
        bytes += f.get();
      }
      return bytes / ((System.nanoTime() - start) / 1e9);
    } finally {
      pool.shutdownNow();
    }
  }

  private Result download(
      BenchContext context, FlightClient client, String token, PollInfo done, int runs)
      throws Exception {
    double[] four = new double[runs];
    double[] one = new double[runs];
    for (int r = 0; r < runs; r++) {
      one[r] = downloadRate(client, token, done, 1) / 1e6;
      four[r] = downloadRate(client, token, done, 4) / 1e6;
    }
    return Result.measured(
        id(),
        "parts-4-dogets",
        Stats.of(four),
        Stats.of(one),
        "MB/s",
        "1 DoGet at a time",
        true,
        String.format(
            Locale.ROOT,
            "%d parts of the 8-split export (in 8 child directories), Arrow buffer bytes received,"
                + " %d alternated runs",
            done.getFlightInfo().getEndpoints().size(),
            runs));
  }

  private static void deleteTree(Path dir) throws java.io.IOException {
    if (!Files.exists(dir)) {
      return;
    }
    try (var paths = Files.walk(dir)) {
      for (Path p : paths.sorted(java.util.Comparator.reverseOrder()).toList()) {
        Files.delete(p);
      }
    }
  }
}
