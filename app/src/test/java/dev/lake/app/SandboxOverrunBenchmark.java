package dev.lake.app;

import dev.lake.core.AdmittedQuery;
import dev.lake.core.QueryEngine;
import dev.lake.core.QueryExecution;
import dev.lake.core.SnapshotSet;
import dev.lake.engine.DuckDbSqlAdmission;
import dev.lake.engine.EngineConfig;
import dev.lake.sandbox.SandboxConfig;
import dev.lake.sandbox.SandboxedQueryEngine;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.locks.LockSupport;
import org.apache.arrow.memory.RootAllocator;

/**
 * Deadline overrun and slot release through engine processes (issue 23), the figures behind
 * docs/security.md: for a statement deaf to cancel ({@code levenshtein} of two 100 KB row values:
 * its process is killed after the grace) and one that stops when asked (a long {@code range}
 * count), the time from its deadline to its failure, and from a cancel (what a client leaving
 * causes) to its slot's release. Grace 2 s, the shipped default. {@code java -cp …
 * dev.lake.app.SandboxOverrunBenchmark <dir> <rounds>}; prints p50, p99 and max of each.
 */
public final class SandboxOverrunBenchmark {
  private SandboxOverrunBenchmark() {}

  static final String DEAF =
      "SELECT levenshtein(a, b) AS d FROM (SELECT string_agg('ab', '') AS a,"
          + " string_agg('ba', '') AS b FROM range(50000))";
  static final String POLITE = "SELECT count(*) AS n FROM range(1000000000000000)";

  public static void main(String[] args) throws Exception {
    Path dir = Path.of(args[0]);
    int rounds = Integer.parseInt(args[1]);
    EngineConfig engine = SandboxFixture.engine(dir, 2);
    Duration deadline = Duration.ofSeconds(1);
    DuckDbSqlAdmission admission = new DuckDbSqlAdmission();
    try (RootAllocator allocator = new RootAllocator();
        LakeRuntime runtime = SandboxFixture.start(dir, engine, SandboxConfig.defaults())) {
      SandboxedQueryEngine processes = (SandboxedQueryEngine) runtime.engine();
      QueryEngine tenant = processes.forTenant("bench");
      for (String sql : List.of(POLITE, DEAF)) {
        AdmittedQuery query = admission.admit(sql);
        List<Long> overrun = new ArrayList<>();
        List<Long> release = new ArrayList<>();
        for (int i = 0; i < rounds; i++) {
          run(tenant, admission.admit("SELECT " + i + " AS warm"), allocator, deadline);
          long start = System.nanoTime();
          run(tenant, query, allocator, deadline);
          overrun.add(System.nanoTime() - start - deadline.toNanos());
          awaitIdle(processes);
          try (QueryExecution x =
              tenant.execute(
                  query, List.of(), SnapshotSet.empty(), allocator, Duration.ofMinutes(1))) {
            CompletableFuture<Void> reader = CompletableFuture.runAsync(() -> drain(x));
            LockSupport.parkNanos(deadline.toNanos());
            long cancel = System.nanoTime();
            x.cancel();
            awaitIdle(processes);
            release.add(System.nanoTime() - cancel);
            reader.handle((v, e) -> null).join();
          }
        }
        System.out.printf(
            "%s: deadline overrun p50 %.2f s, p99 %.2f s, max %.2f s; slot release after a"
                + " cancel p50 %.2f s, p99 %.2f s, max %.2f s (%d rounds, %d processes killed)%n",
            sql == DEAF ? "deaf to cancel (levenshtein)" : "stops when asked (range count)",
            pct(overrun, 50),
            pct(overrun, 99),
            pct(overrun, 100),
            pct(release, 50),
            pct(release, 99),
            pct(release, 100),
            rounds,
            processes.figures().overrunKills());
      }
    }
    admission.close();
    System.exit(0);
  }

  private static void run(QueryEngine e, AdmittedQuery q, RootAllocator a, Duration deadline) {
    try (QueryExecution x = e.execute(q, List.of(), SnapshotSet.empty(), a, deadline)) {
      drain(x);
    } catch (RuntimeException expected) {
      // the deadline
    }
  }

  private static void drain(QueryExecution x) {
    try {
      while (x.reader().loadNextBatch()) {
        // discard
      }
    } catch (Exception ended) {
      // cancelled or past its deadline
    }
  }

  private static void awaitIdle(SandboxedQueryEngine processes) {
    while (processes.figures().runningStatements() != 0) {
      LockSupport.parkNanos(1_000_000);
    }
  }

  /** The {@code p}-th percentile (nearest rank) in seconds. */
  private static double pct(List<Long> nanos, int p) {
    List<Long> sorted = new ArrayList<>(nanos);
    Collections.sort(sorted);
    int rank = (int) Math.ceil(p / 100.0 * sorted.size());
    return sorted.get(Math.max(0, rank - 1)) / 1e9;
  }
}
