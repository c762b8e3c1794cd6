package dev.lake.engine;

import static dev.lake.engine.EngineTestSupport.rows;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.lake.core.AdmittedQuery;
import dev.lake.core.Catalogs;
import dev.lake.core.ErrorCode;
import dev.lake.core.LakeException;
import dev.lake.core.Principal;
import dev.lake.core.QueryExecution;
import dev.lake.core.SnapshotSet;
import dev.lake.core.SplitPlan;
import dev.lake.core.TableRef;
import dev.lake.core.local.FileRegistry;
import dev.lake.lance.LanceFormat;
import dev.lake.lance.LanceSnapshot;
import dev.lake.lance.LanceTableReader;
import dev.lake.lance.LanceTableResolver;
import dev.lake.lance.demo.TpchDemo;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.ipc.ArrowReader;
import org.apache.arrow.vector.ipc.ArrowStreamReader;
import org.apache.arrow.vector.ipc.ArrowStreamWriter;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The splits the durable tier fans out over ({@code QueryEngine.splits}) are exact: for every TPC-H
 * table, a projection with a filter over its splits, concatenated, gives the same rows as over the
 * whole snapshot; statements that do not decompose never split (limits and aggregates that do:
 * {@code CombineExactnessTest}).
 */
class SplitExactnessTest {
  @TempDir static Path dir;

  static RootAllocator allocator;
  static DuckDbQueryEngine engine;
  static DuckDbSqlAdmission admission;
  static Catalogs catalogs;
  static final Principal ALICE = Principal.of("t1", "alice", Set.of("lake.tpch"));

  /** Rows per Lance file of each table at SF 0.01: at least five fragments everywhere. */
  static final Map<String, Integer> ROWS_PER_FILE =
      Map.of(
          "nation", 5,
          "region", 1,
          "supplier", 20,
          "customer", 300,
          "part", 400,
          "partsupp", 1_600,
          "orders", 3_000,
          "lineitem", 12_000);

  /** A projection and a filter per table (the filter keeps part of the rows, not all, not none). */
  static final Map<String, String> QUERIES =
      Map.of(
          "nation", "SELECT n_name, n_regionkey FROM lake.tpch.nation WHERE n_nationkey % 3 <> 0",
          "region", "SELECT r_name FROM lake.tpch.region WHERE r_regionkey >= 1",
          "supplier",
              "SELECT s_suppkey, upper(s_name) FROM lake.tpch.supplier WHERE s_acctbal > 1000",
          "customer",
              "SELECT c_custkey, c_mktsegment FROM lake.tpch.customer WHERE c_nationkey < 10",
          "part",
              "SELECT p_partkey, p_size * 2 AS s FROM lake.tpch.part WHERE p_size BETWEEN 5 AND 30",
          "partsupp",
              "SELECT ps_partkey, ps_suppkey FROM lake.tpch.partsupp WHERE ps_availqty < 5000",
          "orders",
              "SELECT o_orderkey, o_totalprice FROM lake.tpch.orders"
                  + " WHERE o_orderdate >= DATE '1995-01-01'",
          "lineitem",
              "SELECT l_orderkey, l_linenumber, l_extendedprice * (1 - l_discount)"
                  + " FROM lake.tpch.lineitem WHERE l_shipmode IN ('AIR', 'MAIL')");

  @BeforeAll
  static void setUp() {
    allocator = new RootAllocator();
    FileRegistry registry = new FileRegistry(dir.resolve("registry.json"));
    TpchDemo.generate(dir.resolve("data"), 0.01, registry, allocator, ROWS_PER_FILE::get);
    engine =
        new DuckDbQueryEngine(
            new EngineConfig(512L << 20, 2, dir.resolve("spill"), 1L << 30, 4096, 2),
            List.of(new LanceTableReader(allocator)));
    admission = new DuckDbSqlAdmission();
    catalogs = new Catalogs(List.of(new LanceTableResolver(registry, allocator, Duration.ZERO)));
  }

  @AfterAll
  static void tearDown() {
    engine.close();
    admission.close();
    allocator.close();
  }

  private static List<List<String>> run(AdmittedQuery q, SnapshotSet s) throws Exception {
    return rows(engine.execute(q, List.of(), s, allocator));
  }

  @Test
  void everyTpchTable_projectedAndFiltered_givesTheSameRowsThroughOneAndManySplits()
      throws Exception {
    for (Map.Entry<String, String> e : QUERIES.entrySet()) {
      // GIVEN a row-local statement over the table's pinned snapshot
      AdmittedQuery q = admission.admit(e.getValue());
      SnapshotSet whole = catalogs.resolveAll(ALICE, q);
      List<List<String>> expected = run(q, whole);
      assertThat(expected).as(e.getKey() + " keeps some rows").isNotEmpty();
      for (int maxSplits : new int[] {2, 4, 64}) {
        // WHEN it is cut into splits of about a fifth of the table and each split is run
        List<SnapshotSet> splits = engine.splits(q, whole, 1, maxSplits).splits();
        // THEN there are as many splits as asked (every table has at least five fragments), each
        // naming its own fragments of the same version, and their rows concatenated are exactly
        // the rows
        assertThat(splits.size()).as(e.getKey()).isBetween(Math.min(maxSplits, 5), maxSplits);
        List<List<String>> actual = new ArrayList<>();
        for (SnapshotSet split : splits) {
          LanceSnapshot s = (LanceSnapshot) split.snapshots().values().iterator().next();
          assertThat(s.restricted()).isTrue();
          assertThat(s.whole()).isEqualTo(whole.snapshots().values().iterator().next());
          actual.addAll(run(q, split));
        }
        assertThat(actual)
            .as(e.getKey() + " through " + maxSplits)
            .containsExactlyInAnyOrderElementsOf(expected);
      }
      // AND a split is never split again, nor is a statement split into one piece
      SnapshotSet first = engine.splits(q, whole, 1, 2).splits().get(0);
      assertThat(engine.splits(q, first, 1, 8).splits()).containsExactly(first);
      assertThat(engine.splits(q, whole, 1, 1).splits()).containsExactly(whole);
      assertThat(engine.splits(q, whole, Long.MAX_VALUE, 8).splits()).containsExactly(whole);
    }
  }

  @Test
  void statementsThatAreNotRowLocalOverOneTable_runAsOne() throws Exception {
    for (String sql :
        List.of(
            "SELECT count(DISTINCT o_custkey) FROM lake.tpch.orders",
            "SELECT sum(o_totalprice) / count(*) FROM lake.tpch.orders",
            "SELECT median(o_totalprice) FROM lake.tpch.orders",
            "SELECT o_orderstatus, sum(o_totalprice) FROM lake.tpch.orders GROUP BY 1",
            "SELECT o_orderstatus, sum(o_totalprice) FROM lake.tpch.orders GROUP BY o_orderstatus"
                + " HAVING sum(o_totalprice) > 0",
            "SELECT o_orderstatus, o_custkey, count(*) FROM lake.tpch.orders"
                + " GROUP BY ROLLUP (o_orderstatus, o_custkey)",
            "SELECT o_orderkey FROM lake.tpch.orders ORDER BY o_orderkey",
            "SELECT o_orderkey FROM lake.tpch.orders LIMIT 10 OFFSET 5",
            "SELECT o_orderkey FROM lake.tpch.orders ORDER BY o_custkey LIMIT 10",
            "SELECT o_orderkey FROM lake.tpch.orders LIMIT 1000000",
            "SELECT DISTINCT o_orderstatus FROM lake.tpch.orders",
            "SELECT o_orderkey, row_number() OVER () FROM lake.tpch.orders",
            "SELECT o_orderkey, now() FROM lake.tpch.orders",
            "SELECT o_orderkey, random() FROM lake.tpch.orders",
            "SELECT o_orderkey FROM lake.tpch.orders WHERE o_totalprice >"
                + " (SELECT avg(o_totalprice) FROM lake.tpch.orders)",
            "SELECT o_orderkey FROM lake.tpch.orders o JOIN lake.tpch.customer c"
                + " ON o.o_custkey = c.c_custkey",
            "WITH x AS (SELECT o_orderkey FROM lake.tpch.orders) SELECT * FROM x",
            "SELECT o_orderkey FROM lake.tpch.orders UNION ALL SELECT 1",
            "SELECT o_orderkey FROM lake.tpch.orders USING SAMPLE 10%")) {
      AdmittedQuery q = admission.admit(sql);
      SnapshotSet whole = catalogs.resolveAll(ALICE, q);
      assertThat(engine.splits(q, whole, 1, 8)).as(sql).isEqualTo(SplitPlan.single(q, whole));
    }
  }

  /** Limited and aggregate statements: whether the result's row order is part of its meaning. */
  static final Map<String, Boolean> COMBINED =
      Map.ofEntries(
          Map.entry(
              "SELECT l_orderkey, l_linenumber, l_extendedprice AS price FROM lake.tpch.lineitem"
                  + " ORDER BY price DESC, l_orderkey, 2 LIMIT 20",
              true),
          Map.entry("SELECT * FROM lake.tpch.orders ORDER BY o_orderkey DESC LIMIT 5", true),
          Map.entry(
              "SELECT l_returnflag, l_linestatus, sum(l_quantity) AS sum_qty,"
                  + " sum(l_extendedprice * (1 - l_discount)) AS sum_disc_price,"
                  + " sum(l_extendedprice * (1 - l_discount) * (1 + l_tax)) AS sum_charge,"
                  + " avg(l_quantity) AS avg_qty, avg(l_extendedprice) AS avg_price,"
                  + " avg(l_discount) AS avg_disc, count(*) AS count_order"
                  + " FROM lake.tpch.lineitem WHERE l_shipdate <= DATE '1998-09-02'"
                  + " GROUP BY l_returnflag, l_linestatus ORDER BY l_returnflag, l_linestatus",
              true),
          Map.entry(
              "SELECT count(*), count(o_comment), min(o_orderdate), max(o_totalprice),"
                  + " avg(o_totalprice), sum(o_shippriority), avg(o_custkey)"
                  + " FROM lake.tpch.orders WHERE o_orderstatus = 'F'",
              true),
          Map.entry(
              "SELECT count(*), sum(o_totalprice), avg(o_totalprice) FROM lake.tpch.orders"
                  + " WHERE o_totalprice < 0",
              true),
          Map.entry(
              "SELECT o_orderpriority, count(o_comment) FROM lake.tpch.orders"
                  + " WHERE o_orderkey < 0 GROUP BY o_orderpriority",
              false),
          Map.entry(
              "SELECT l_suppkey AS s, sum(l_quantity) AS q, max(l_shipdate)"
                  + " FROM lake.tpch.lineitem GROUP BY l_suppkey ORDER BY q DESC, s LIMIT 5",
              true),
          Map.entry(
              "SELECT avg(l_linenumber), l_shipmode, min(l_comment) FROM lake.tpch.lineitem"
                  + " WHERE l_quantity > ? GROUP BY l_shipmode",
              false));

  @Test
  void limitedAndAggregateStatements_giveTheSameRowsThroughSplitsAndTheirCombineStep()
      throws Exception {
    for (Map.Entry<String, Boolean> e : COMBINED.entrySet()) {
      // GIVEN a statement with a limit or decomposable aggregates (one with a parameter)
      AdmittedQuery q = admission.admit(e.getKey());
      List<Object> parameters = e.getKey().contains("?") ? List.of(25) : List.of();
      SnapshotSet whole = catalogs.resolveAll(ALICE, q);
      List<List<String>> expected = rows(engine.execute(q, parameters, whole, allocator));
      // WHEN it is cut into four splits, each child runs its statement and the combine step
      // reads their results (through Arrow IPC, as the durable tier stores them)
      SplitPlan plan = engine.splits(q, whole, 1, 4);
      assertThat(plan.splits()).as(e.getKey()).hasSize(4);
      assertThat(plan.combineSql()).as(e.getKey()).isPresent();
      AdmittedQuery child = new AdmittedQuery(plan.childSql(), q.kind(), q.tables());
      List<ArrowReader> partials = new ArrayList<>();
      for (SnapshotSet split : plan.splits()) {
        partials.add(ipc(engine.execute(child, parameters, split, allocator)));
      }
      List<List<String>> actual;
      try (ArrowReader combined =
          engine.parquet().orElseThrow().combine(plan.combineSql().get(), partials, allocator)) {
        // THEN the columns are the statement's, names and types
        assertThat(combined.getVectorSchemaRoot().getSchema().getFields())
            .as(e.getKey())
            .isEqualTo(engine.plan(q, whole).getFields());
        actual = rows(combined);
      }
      // AND so are the rows (in order where the statement orders them)
      if (e.getValue()) {
        assertThat(actual).as(e.getKey()).containsExactlyElementsOf(expected);
      } else {
        assertThat(actual).as(e.getKey()).containsExactlyInAnyOrderElementsOf(expected);
      }
    }
  }

  @Test
  void aLimitWithoutOrder_givesExactlyThatManyOfTheStatementsRows() throws Exception {
    // GIVEN a limit without an order over a filter
    String rowsSql =
        "SELECT l_orderkey, l_linenumber FROM lake.tpch.lineitem WHERE l_shipmode = 'AIR'";
    AdmittedQuery q = admission.admit(rowsSql + " LIMIT 25");
    SnapshotSet whole = catalogs.resolveAll(ALICE, q);
    List<List<String>> all = run(admission.admit(rowsSql), whole);
    // WHEN it runs through splits and the combine step
    SplitPlan plan = engine.splits(q, whole, 1, 4);
    assertThat(plan.childSql()).isEqualTo(q.sql());
    List<ArrowReader> partials = new ArrayList<>();
    for (SnapshotSet split : plan.splits()) {
      partials.add(ipc(engine.execute(q, List.of(), split, allocator)));
    }
    List<List<String>> actual;
    try (ArrowReader combined =
        engine.parquet().orElseThrow().combine(plan.combineSql().get(), partials, allocator)) {
      actual = rows(combined);
    }
    // THEN it has exactly 25 distinct rows, every one of them the statement's
    assertThat(actual).hasSize(25).doesNotHaveDuplicates();
    assertThat(all).containsAll(actual);
  }

  /** The execution's rows as the durable tier stores them: one Arrow IPC stream, read back. */
  private static ArrowReader ipc(QueryExecution execution) throws Exception {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    try (execution;
        ArrowStreamWriter writer =
            new ArrowStreamWriter(execution.reader().getVectorSchemaRoot(), null, bytes)) {
      writer.start();
      while (execution.reader().loadNextBatch()) {
        writer.writeBatch();
      }
      writer.end();
    }
    return new ArrowStreamReader(new ByteArrayInputStream(bytes.toByteArray()), allocator);
  }

  @Test
  void aSplitNamingAFragmentTheVersionLacks_failsClosed() throws Exception {
    // GIVEN a split of orders that names a fragment id the version does not have
    AdmittedQuery q = admission.admit(QUERIES.get("orders"));
    SnapshotSet whole = catalogs.resolveAll(ALICE, q);
    TableRef ref = whole.snapshots().keySet().iterator().next();
    LanceSnapshot s = (LanceSnapshot) whole.resolve(ref);
    SnapshotSet forged =
        new SnapshotSet(
            Map.of(
                ref,
                new LanceSnapshot(s.location(), s.incarnation(), s.version(), List.of(0, 9_999))));
    // WHEN it runs THEN it fails closed, naming the table
    assertThatThrownBy(() -> run(q, forged))
        .isInstanceOfSatisfying(
            LakeException.class, e -> assertThat(e.code()).isEqualTo(ErrorCode.SNAPSHOT_GONE))
        .hasMessageContaining("lake.tpch.orders");
    // AND the sealed form of a split round-trips through the format's codec
    LanceSnapshot split =
        (LanceSnapshot) engine.splits(q, whole, 1, 3).splits().get(1).resolve(ref);
    var node = dev.lake.core.Json.mapper().createObjectNode();
    new LanceFormat().encode(split, node);
    assertThat(new LanceFormat().decode(node)).isEqualTo(split);
    // AND the next statement still runs
    assertThat(run(q, whole)).isNotEmpty();
  }
}
