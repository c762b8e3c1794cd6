package dev.lake.engine;

import static dev.lake.engine.EngineTestSupport.rows;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.lake.core.AdmittedQuery;
import dev.lake.core.Catalogs;
import dev.lake.core.ErrorCode;
import dev.lake.core.LakeException;
import dev.lake.core.Principal;
import dev.lake.core.SnapshotSet;
import dev.lake.core.TableRef;
import dev.lake.core.local.FileRegistry;
import dev.lake.lance.LanceFormat;
import dev.lake.lance.LanceSnapshot;
import dev.lake.lance.LanceTableReader;
import dev.lake.lance.LanceTableResolver;
import dev.lake.lance.demo.TpchDemo;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.arrow.memory.RootAllocator;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The splits the durable tier fans out over ({@code QueryEngine.splits}) are exact: for every TPC-H
 * table, a projection with a filter over its splits, concatenated, gives the same rows as over the
 * whole snapshot; statements that are not row-local over one table never split.
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
        List<SnapshotSet> splits = engine.splits(q, whole, 1, maxSplits);
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
      SnapshotSet first = engine.splits(q, whole, 1, 2).get(0);
      assertThat(engine.splits(q, first, 1, 8)).containsExactly(first);
      assertThat(engine.splits(q, whole, 1, 1)).containsExactly(whole);
      assertThat(engine.splits(q, whole, Long.MAX_VALUE, 8)).containsExactly(whole);
    }
  }

  @Test
  void statementsThatAreNotRowLocalOverOneTable_runAsOne() throws Exception {
    for (String sql :
        List.of(
            "SELECT count(*) FROM lake.tpch.orders",
            "SELECT o_orderstatus, sum(o_totalprice) FROM lake.tpch.orders GROUP BY 1",
            "SELECT o_orderkey FROM lake.tpch.orders ORDER BY o_orderkey",
            "SELECT o_orderkey FROM lake.tpch.orders LIMIT 10",
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
      assertThat(engine.splits(q, whole, 1, 8)).as(sql).containsExactly(whole);
    }
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
    LanceSnapshot split = (LanceSnapshot) engine.splits(q, whole, 1, 3).get(1).resolve(ref);
    var node = dev.lake.core.Json.mapper().createObjectNode();
    new LanceFormat().encode(split, node);
    assertThat(new LanceFormat().decode(node)).isEqualTo(split);
    // AND the next statement still runs
    assertThat(run(q, whole)).isNotEmpty();
  }
}
