package dev.lake.frontdoor;

import static dev.lake.frontdoor.DurableFlightCalls.download;
import static dev.lake.frontdoor.DurableFlightCalls.flightError;
import static dev.lake.frontdoor.DurableFlightCalls.pollToEnd;
import static dev.lake.frontdoor.DurableFlightCalls.rows;
import static dev.lake.frontdoor.DurableFlightCalls.statement;
import static dev.lake.frontdoor.TestLake.ALICE;
import static dev.lake.frontdoor.TestLake.CAROL;
import static dev.lake.frontdoor.TestLake.bearer;
import static org.assertj.core.api.Assertions.assertThat;

import dev.lake.core.TableRef;
import dev.lake.core.job.Job;
import dev.lake.core.job.JobState;
import dev.lake.core.job.ResultConfig;
import dev.lake.core.local.FileJobStore;
import dev.lake.core.local.FileRegistry;
import dev.lake.core.testing.Poll;
import dev.lake.durable.DurableTierConfigBuilder;
import dev.lake.durable.WorkerConfigBuilder;
import dev.lake.lance.LanceFormat;
import dev.lake.lance.demo.TpchDemo;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Stream;
import org.apache.arrow.flight.CancelFlightInfoRequest;
import org.apache.arrow.flight.FlightClient;
import org.apache.arrow.flight.FlightInfo;
import org.apache.arrow.flight.FlightRuntimeException;
import org.apache.arrow.flight.FlightStatusCode;
import org.apache.arrow.flight.Location;
import org.apache.arrow.flight.PollInfo;
import org.apache.arrow.memory.RootAllocator;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.io.TempDir;

/**
 * Durable fan-out end to end on local adapters: lineitem in 30 Lance fragments, splits of 2,000
 * rows, at most 8 child jobs, two in-process workers and one running place (so children run one
 * after another and a test can act between them). The parent's result equals the single-worker
 * (interactive) result — also for aggregates and ordered limits, whose children write partial
 * results that the parent combines; a failed child, a cancelled parent and a snapshot removed
 * between splits end as a single job does — nothing published, every child ended, every place
 * released.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class DurableFanOutTest {
  static final String EXPORT =
      "SELECT l_orderkey, l_linenumber, l_extendedprice FROM lake.tpch.lineitem"
          + " WHERE l_shipmode IN ('AIR', 'RAIL')";

  static final String AGGREGATE =
      "SELECT l_returnflag, l_linestatus, sum(l_quantity) AS sum_qty,"
          + " sum(l_extendedprice * (1 - l_discount)) AS sum_disc_price, avg(l_discount) AS a,"
          + " min(l_shipdate), count(*) AS n FROM lake.tpch.lineitem"
          + " WHERE l_shipdate <= DATE '1998-09-02' GROUP BY l_returnflag, l_linestatus"
          + " ORDER BY l_returnflag, l_linestatus";

  static final String TOP_TEN =
      "SELECT l_orderkey, l_linenumber, l_extendedprice AS price FROM lake.tpch.lineitem"
          + " WHERE l_shipmode = 'AIR' ORDER BY price DESC, l_orderkey, l_linenumber LIMIT 10";

  static final String EIGHT_COMMENTS =
      "concat(l_comment, l_comment, l_comment, l_comment, l_comment, l_comment, l_comment,"
          + " l_comment)";

  /**
   * Row-local but slow and small in memory: an edit distance of two 200-character strings per row
   * (about a second per split on a quiet core).
   */
  static final String SLOW_EXPORT =
      "SELECT l_orderkey FROM lake.tpch.lineitem WHERE levenshtein("
          + EIGHT_COMMENTS
          + ", reverse("
          + EIGHT_COMMENTS
          + ")) < 0";

  @TempDir static Path dir;
  static TestLake lake;
  static FlightClient client;

  @BeforeAll
  static void start() {
    // lineitem written as 30 fragments before the lake starts (it keeps existing datasets)
    try (RootAllocator allocator = new RootAllocator()) {
      TpchDemo.generate(
          dir.resolve("data"),
          0.01,
          new FileRegistry(dir.resolve("registry.json")),
          allocator,
          t -> t.equals("lineitem") ? 2_000 : 65_536);
    }
    lake =
        TestLake.startDurable(
            dir,
            DurableTierConfigBuilder.builder()
                .pollWait(Duration.ofMillis(500))
                .waitBudget(Duration.ofSeconds(4))
                .workers(2)
                .worker(
                    WorkerConfigBuilder.builder()
                        .lease(Duration.ofSeconds(4))
                        .renewEvery(Duration.ofMillis(300))
                        .maxExecution(Duration.ofMinutes(2))
                        .lambdaMargin(Duration.ofSeconds(1))
                        .retryDelay(Duration.ofMillis(200))
                        .maxRunning(1)
                        .splitRows(8_000)
                        .maxFanOut(8)
                        .build())
                .build()
                .withResultPrefix("")
                .withResults(
                    ResultConfig.defaults().withMaxPartRows(3_000).withMaxBatchRows(100_000)));
    client =
        FlightClient.builder(lake.allocator, Location.forGrpcInsecure("127.0.0.1", lake.port()))
            .build();
  }

  @AfterAll
  static void stop() throws Exception {
    client.close();
    lake.close();
  }

  static FileJobStore store() {
    return new FileJobStore(dir.resolve("jobs"));
  }

  /** Every job record, children included. */
  static List<Job> jobs() {
    FileJobStore store = store();
    return store.ids().stream().flatMap(id -> store.find(id).stream()).toList();
  }

  static List<Job> children() {
    return jobs().stream().filter(j -> j.fingerprint().startsWith("fan-out:")).toList();
  }

  /** Files under {@code results/acme} (every result directory's parts and manifests). */
  static Set<String> resultFiles() {
    Path tenant = dir.resolve("results").resolve("acme");
    if (!Files.isDirectory(tenant)) {
      return Set.of();
    }
    try (Stream<Path> files = Files.walk(tenant)) {
      return files
          .filter(Files::isRegularFile)
          .map(p -> tenant.relativize(p).toString())
          .collect(java.util.stream.Collectors.toCollection(TreeSet::new));
    } catch (IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
  }

  static void awaitOneChildRunning(Set<String> before) {
    Poll.until(
        Duration.ofSeconds(30),
        () ->
            children().stream()
                .anyMatch(c -> !before.contains(c.id()) && c.state() == JobState.RUNNING),
        "a child job runs");
  }

  /** Every child ended, and the tenant holds no place any more. */
  static void awaitEverythingReleased(Set<String> filesBefore) {
    Poll.until(
        Duration.ofSeconds(30),
        () ->
            children().stream().allMatch(c -> c.state().terminal())
                && store().usage("acme").active() == 0
                && store().usage("acme").running() == 0
                && resultFiles().equals(filesBefore),
        "every child ended, every place released, nothing left in the result store");
  }

  @Test
  @Order(1)
  void splittableExport_runsAsChildJobs_andEqualsTheSingleWorkerResult() throws Exception {
    // GIVEN the single-worker (interactive) result of a projection with a filter
    FlightInfo interactive = client.getInfo(statement(EXPORT), bearer(ALICE));
    List<String> expected = rows(client, interactive.getEndpoints().get(0).getTicket(), ALICE);
    assertThat(expected).hasSizeGreaterThan(10_000);
    // WHEN it is submitted durably
    PollInfo done = pollToEnd(client, client.pollInfo(statement(EXPORT), bearer(ALICE)), ALICE);
    // THEN it ran as 8 child jobs (60,175 rows / 8,000 per split, at most 8), all succeeded
    List<Job> children = children();
    assertThat(children).hasSize(8).allMatch(c -> c.state() == JobState.SUCCEEDED);
    // AND the one result lists every child's parts, and holds exactly the same rows
    List<String> actual = download(client, done.getFlightInfo(), ALICE);
    assertThat(actual).containsExactlyInAnyOrderElementsOf(expected);
    assertThat(done.getFlightInfo().getRecords()).isEqualTo(expected.size());
    assertThat(resultFiles().stream().filter(f -> f.endsWith("manifest.json"))).hasSize(9);
    // AND the tenant holds no place once done
    assertThat(store().usage("acme").active()).isZero();
    // AND a statement that does not decompose (a distinct count) runs on one worker, as before
    PollInfo count =
        pollToEnd(
            client,
            client.pollInfo(
                statement("SELECT count(DISTINCT l_linenumber) FROM lake.tpch.lineitem"),
                bearer(ALICE)),
            ALICE);
    assertThat(download(client, count.getFlightInfo(), ALICE)).containsExactly("7|");
    assertThat(children()).hasSize(8);
  }

  @Test
  @Order(2)
  void aggregatesAndLimits_fanOutWithACombineStep_andEqualTheSingleWorkerResult() throws Exception {
    for (String sql : List.of(AGGREGATE, TOP_TEN, "SELECT count(*) FROM lake.tpch.lineitem")) {
      // GIVEN the single-worker (interactive) result of an aggregate or an ordered limit
      Set<String> filesBefore = resultFiles();
      Set<String> childrenBefore = new TreeSet<>(children().stream().map(Job::id).toList());
      FlightInfo interactive = client.getInfo(statement(sql), bearer(ALICE));
      List<String> expected = rows(client, interactive.getEndpoints().get(0).getTicket(), ALICE);
      // WHEN it is submitted durably
      PollInfo done = pollToEnd(client, client.pollInfo(statement(sql), bearer(ALICE)), ALICE);
      // THEN it ran as 8 child jobs, all succeeded
      assertThat(children().stream().filter(c -> !childrenBefore.contains(c.id())))
          .as(sql)
          .hasSize(8)
          .allMatch(c -> c.state() == JobState.SUCCEEDED);
      // AND its one result holds exactly the same rows, in the same order
      assertThat(download(client, done.getFlightInfo(), ALICE))
          .as(sql)
          .containsExactlyElementsOf(expected);
      // AND only the parent's own result stays: the children's partial results are deleted
      Poll.until(
          Duration.ofSeconds(10),
          () ->
              resultFiles().stream()
                      .filter(f -> !filesBefore.contains(f))
                      .filter(f -> f.endsWith("manifest.json"))
                      .count()
                  == 1,
          "only the parent's manifest stays");
      assertThat(store().usage("acme").active()).isZero();
    }
    // AND a combined result is stored in the client's format (Parquet here; the children's
    // partial results are Arrow whatever the client asked for)
    FlightInfo interactive = client.getInfo(statement(AGGREGATE), bearer(ALICE));
    List<String> expected = rows(client, interactive.getEndpoints().get(0).getTicket(), ALICE);
    Set<String> filesBefore = resultFiles();
    PollInfo parquet =
        pollToEnd(
            client,
            client.pollInfo(
                statement(AGGREGATE),
                bearer(ALICE),
                DurableFlightCalls.header("x-lake-result-format", "parquet")),
            ALICE);
    assertThat(download(client, parquet.getFlightInfo(), ALICE))
        .containsExactlyElementsOf(expected);
    assertThat(resultFiles().stream().filter(f -> !filesBefore.contains(f)))
        .anyMatch(f -> f.endsWith(".parquet"));
  }

  @Test
  @Order(3)
  void aChildThatFails_failsTheParentWithItsError_publishesNothing_andTheNextTenantRuns()
      throws Exception {
    // GIVEN an aggregate whose last splits (the highest order keys) fail to convert a comment,
    // and the error one worker gives for it
    String sql =
        "SELECT l_returnflag, sum(CASE WHEN l_orderkey > 50000 THEN CAST(l_comment AS INTEGER)"
            + " ELSE 0 END) FROM lake.tpch.lineitem GROUP BY l_returnflag";
    FlightRuntimeException single =
        flightError(
            () ->
                rows(
                    client,
                    client.getInfo(statement(sql), bearer(ALICE)).getEndpoints().get(0).getTicket(),
                    ALICE));
    Set<String> filesBefore = resultFiles();
    Set<String> childrenBefore = new TreeSet<>(children().stream().map(Job::id).toList());
    // WHEN it is submitted durably
    FlightRuntimeException failed =
        flightError(() -> pollToEnd(client, client.pollInfo(statement(sql), bearer(ALICE)), ALICE));
    // THEN it fails as one worker fails: the same status, the same error
    assertThat(failed.status().code()).isEqualTo(single.status().code());
    assertThat(failed.status().description()).contains("Could not convert string");
    // AND some children succeeded, some failed, and nothing stays published; every place is
    // released
    awaitEverythingReleased(filesBefore);
    List<Job> mine = children().stream().filter(c -> !childrenBefore.contains(c.id())).toList();
    assertThat(mine).hasSize(8).anyMatch(c -> c.state() == JobState.FAILED);
    // AND another tenant's fresh, never-seen aggregate runs through its own fan-out
    String fresh =
        "SELECT l_linestatus, max(l_quantity) AS m FROM lake.tpch.lineitem"
            + " WHERE l_orderkey % 7 = 3 GROUP BY l_linestatus ORDER BY l_linestatus";
    FlightInfo interactive = client.getInfo(statement(fresh), bearer(CAROL));
    List<String> expected = rows(client, interactive.getEndpoints().get(0).getTicket(), CAROL);
    PollInfo done = pollToEnd(client, client.pollInfo(statement(fresh), bearer(CAROL)), CAROL);
    assertThat(download(client, done.getFlightInfo(), CAROL))
        .hasSize(2)
        .containsExactlyElementsOf(expected);
  }

  @Test
  @Order(4)
  void cancellingTheParentMidRun_cancelsEveryChild_andPublishesNothing() throws Exception {
    // GIVEN a slow splittable export whose first child runs
    Set<String> filesBefore = resultFiles();
    Set<String> childrenBefore = new TreeSet<>(children().stream().map(Job::id).toList());
    PollInfo submitted = client.pollInfo(statement(SLOW_EXPORT), bearer(ALICE));
    awaitOneChildRunning(childrenBefore);
    // WHEN the client cancels it
    client.cancelFlightInfo(new CancelFlightInfoRequest(submitted.getFlightInfo()), bearer(ALICE));
    // THEN polling reports CANCELLED
    FlightRuntimeException polled =
        flightError(() -> client.pollInfo(submitted.getFlightDescriptor().get(), bearer(ALICE)));
    assertThat(polled.status().code()).isEqualTo(FlightStatusCode.CANCELLED);
    // AND every child ends (those not yet done cancelled), no part or manifest stays, and every
    // place is released
    awaitEverythingReleased(filesBefore);
    assertThat(children().stream().filter(c -> !childrenBefore.contains(c.id())))
        .hasSize(8)
        .anyMatch(c -> c.state() == JobState.CANCELLED);
  }

  @Test
  @Order(5)
  void snapshotRemovedBetweenSplits_failsClosed_andPublishesNothing() throws Exception {
    // GIVEN a slow splittable export whose first child runs (the others wait: one running place)
    Set<String> filesBefore = resultFiles();
    Set<String> childrenBefore = new TreeSet<>(children().stream().map(Job::id).toList());
    PollInfo submitted = client.pollInfo(statement(SLOW_EXPORT + " AND 1 = 1"), bearer(ALICE));
    awaitOneChildRunning(childrenBefore);
    // WHEN lineitem is replaced (a new registry incarnation): the sealed snapshot is gone
    TableRef lineitem = new TableRef("lake", "tpch", "lineitem");
    String location = lake.registry.find(lineitem).orElseThrow().location();
    lake.registry.unregister(lineitem);
    LanceFormat.register(lake.registry, lineitem, location);
    // THEN the job fails closed with the snapshot error, as one worker would
    FlightRuntimeException failed = flightError(() -> pollToEnd(client, submitted, ALICE));
    assertThat(failed.status().description()).contains("no longer available");
    // AND no child's result stays, every child ended, every place is released
    awaitEverythingReleased(filesBefore);
    List<Job> mine =
        new ArrayList<>(children().stream().filter(c -> !childrenBefore.contains(c.id())).toList());
    assertThat(mine).anyMatch(c -> c.state() == JobState.FAILED);
    // AND the next statement (another tenant's would be the same) runs at the new incarnation
    PollInfo next =
        pollToEnd(
            client,
            client.pollInfo(statement("SELECT count(*) FROM lake.tpch.nation"), bearer(ALICE)),
            ALICE);
    assertThat(download(client, next.getFlightInfo(), ALICE)).containsExactly("25|");
  }
}
