package dev.lake.bench;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The load test at a small size (about 40 s): the polite tenants keep being served next to a greedy
 * tenant, and every greedy request is answered with the status of the bound it hit. Asserts
 * outcomes, never timings.
 */
class LoadTestTest {
  @TempDir Path dir;

  @Test
  void politeTenantsAreAllServed_whileEveryGreedyRequestGetsTheStatusOfItsBound() throws Exception {
    // GIVEN TPC-H SF 0.001, 2 polite tenants × 1 client and a greedy tenant with one client per
    // behaviour; a 256 MiB engine, slow readers cut after 2 s, heavy statements with a 2 s client
    // deadline (each phase runs on until every polite client finished a request in it)
    LoadConfig config =
        new LoadConfig(
            2,
            1,
            GreedyClient.Behaviour.values().length,
            Duration.ofSeconds(2),
            Duration.ofSeconds(4),
            Duration.ofSeconds(14),
            Duration.ofMillis(20),
            10_000,
            0.001,
            256L << 20,
            Duration.ofSeconds(2),
            Duration.ofSeconds(2));
    ByteArrayOutputStream log = new ByteArrayOutputStream();

    // WHEN
    LoadReport report =
        LoadTest.run(config, dir, new PrintStream(log, true, StandardCharsets.UTF_8));

    // THEN every polite request of both phases succeeded: the greedy tenant's memory hog exhausts
    // only its own engine memory pool, never the polite tenants' pools
    String context = report.markdown() + "\n" + log.toString(StandardCharsets.UTF_8);
    System.out.println(context);
    assertThat(report.outcomes("polite/baseline").keySet()).as(context).containsExactly("OK");
    assertThat(report.outcomes("polite/contention").keySet()).as(context).containsExactly("OK");
    assertThat(report.baseline()).as(context).isNotEmpty();
    assertThat(report.contention()).as(context).isNotEmpty();
    // AND each greedy behaviour met its bound, with its status (never INTERNAL or a reset)
    assertThat(report.outcomes("greedy/oversized").keySet())
        .as(context)
        .containsExactly("INVALID_ARGUMENT");
    // (the heavy queries share the greedy tenant's memory pool with its own memory hog, so one may
    // meet that pool full: its own RESOURCE_EXHAUSTED, never another tenant's)
    assertThat(report.outcomes("greedy/heavy_query").keySet())
        .as(context)
        .contains("TIMED_OUT")
        .isSubsetOf("TIMED_OUT", "RESOURCE_EXHAUSTED");
    assertThat(report.outcomes("greedy/memory_hog").keySet())
        .as(context)
        .isNotEmpty()
        .isSubsetOf("RESOURCE_EXHAUSTED", "TIMED_OUT");
    assertThat(report.outcomes("greedy/job_spam").keySet())
        .as(context)
        .isNotEmpty()
        .isSubsetOf("OK", "RESOURCE_EXHAUSTED");
    // a slow reader learns of the idle-stream timeout when it reads again
    assertThat(report.outcomes("greedy/slow_reader").keySet())
        .as(context)
        .contains("TIMED_OUT")
        .isSubsetOf("TIMED_OUT", "STILL_OPEN");
    // AND the report names both phases and the memory figure
    assertThat(report.markdown()).contains("| p99 |").contains("engine memory limit 256 MiB");
  }
}
