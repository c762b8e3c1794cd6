package dev.lake.bench;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.lake.bench.ClientSpec.Group;
import dev.lake.bench.ClientSpec.Outcome;
import dev.lake.bench.ClientSpec.Samples;
import dev.lake.bench.ClientSpec.Side;
import dev.lake.bench.ClientSpec.WarmupUsed;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;

/**
 * The client side of the bench. Runs every group of a {@link ClientSpec}: warm-up, then timed runs
 * interleaved across the group's sides (the starting side rotates each iteration so neither side
 * always runs first). Entry point of the client JVM: {@code ClientLoop <spec.json> <outcome.json>}.
 */
public final class ClientLoop {
  static final ObjectMapper JSON = new ObjectMapper();

  private ClientLoop() {}

  public static void main(String[] args) throws Exception {
    if (args.length != 2) {
      System.err.println("usage: ClientLoop <spec.json> <outcome.json>");
      System.exit(2);
    }
    ClientSpec spec = JSON.readValue(Path.of(args[0]).toFile(), ClientSpec.class);
    Outcome outcome = run(spec);
    JSON.writeValue(Path.of(args[1]).toFile(), outcome);
  }

  /** Runs {@code spec} in this JVM. */
  public static Outcome run(ClientSpec spec) throws Exception {
    Map<String, Map<String, Samples>> groups = new LinkedHashMap<>();
    Map<String, WarmupUsed> warmups = new LinkedHashMap<>();
    try (BufferAllocator allocator = new RootAllocator();
        ClientSides sides = new ClientSides(allocator, spec.token())) {
      for (Group group : spec.groups()) {
        groups.put(group.name(), runGroup(spec, group, sides, warmups));
      }
    }
    return new Outcome(groups, warmups);
  }

  private static Map<String, Samples> runGroup(
      ClientSpec spec, Group group, ClientSides sides, Map<String, WarmupUsed> warmups)
      throws Exception {
    for (Side side : group.sides()) {
      sides.prepare(side);
    }
    ExecutorService pool = Executors.newFixedThreadPool(group.concurrency());
    try {
      warmups.put(group.name(), warmUp(spec, group, pool, sides));
      Map<String, List<long[]>> runs = new LinkedHashMap<>();
      group.sides().forEach(s -> runs.put(s.name(), new ArrayList<>()));
      int n = group.sides().size();
      long timedStart = System.nanoTime();
      for (int i = 0; i < spec.iterations(); i++) {
        // a budget ends a group only after an odd number of rounds: the median is then a run, not
        // the lower of two middle runs (with 2 runs that was the slower one's MB/s but the faster
        // one's ms: a quick P2 at load read 0.12x from one bad run while its note said 1,054 ms)
        if (spec.groupBudgetMillis() > 0
            && i >= ClientSpec.MIN_BUDGETED_RUNS
            && i % 2 == 1
            && (System.nanoTime() - timedStart) / 1_000_000 > spec.groupBudgetMillis()) {
          break;
        }
        for (int k = 0; k < n; k++) {
          Side side = group.sides().get((i + k) % n);
          runs.get(side.name()).add(timedRun(pool, group.concurrency(), sides, side));
        }
      }
      Map<String, Samples> out = new LinkedHashMap<>();
      runs.forEach(
          (name, list) ->
              out.put(
                  name,
                  new Samples(
                      list.stream().map(r -> r[0]).toList(),
                      list.stream().map(r -> r[1]).toList(),
                      list.stream().map(r -> r[2]).toList(),
                      list.stream().map(r -> r[3]).toList())));
      return out;
    } finally {
      pool.shutdownNow();
    }
  }

  /**
   * Warm-up rounds (every side once, the first side rotating) until {@link WarmupRule} says the
   * medians settled (never before {@code spec.warmups()} rounds and the minimum time) or the cap
   * passed (also before {@code spec.warmups()} rounds: P1's 200 rounds take a minute at load 17).
   */
  private static WarmupUsed warmUp(
      ClientSpec spec, Group group, ExecutorService pool, ClientSides sides) throws Exception {
    ClientSpec.Warmup rule = spec.warmup();
    Map<String, List<Double>> times = new LinkedHashMap<>();
    group.sides().forEach(s -> times.put(s.name(), new ArrayList<>()));
    int n = group.sides().size();
    long start = System.nanoTime();
    int rounds = 0;
    boolean stable = rule.maxMillis() == 0;
    while (true) {
      long elapsedMillis = (System.nanoTime() - start) / 1_000_000;
      if (rule.maxMillis() == 0) {
        if (rounds >= spec.warmups()) {
          break;
        }
      } else {
        if (rounds >= spec.warmups() && elapsedMillis >= rule.minMillis()) {
          stable = WarmupRule.settled(times.values(), rule.window(), rule.tolerance());
          if (stable) {
            break;
          }
        }
        if (WarmupRule.capped(rounds, elapsedMillis, rule)) {
          break;
        }
      }
      for (int k = 0; k < n; k++) {
        Side side = group.sides().get((rounds + k) % n);
        long[] run = timedRun(pool, group.concurrency(), sides, side);
        times.get(side.name()).add(run[0] / 1e6);
      }
      rounds++;
    }
    return new WarmupUsed(rounds, (System.nanoTime() - start) / 1_000_000, stable);
  }

  /** One timed run: {@code concurrency} requests released together; wall time until all end. */
  private static long[] timedRun(
      ExecutorService pool, int concurrency, ClientSides sides, Side side) throws Exception {
    CountDownLatch go = new CountDownLatch(1);
    List<Future<ClientSides.Received>> futures = new ArrayList<>();
    for (int c = 0; c < concurrency; c++) {
      futures.add(
          pool.submit(
              () -> {
                go.await();
                return sides.runOnce(side);
              }));
    }
    long start = System.nanoTime();
    go.countDown();
    long bytes = 0;
    long rows = 0;
    long extra = 0;
    for (Future<ClientSides.Received> f : futures) {
      ClientSides.Received r = f.get();
      bytes += r.bytes();
      rows += r.rows();
      extra = Math.max(extra, r.extra());
    }
    return new long[] {System.nanoTime() - start, bytes, rows, extra};
  }
}
