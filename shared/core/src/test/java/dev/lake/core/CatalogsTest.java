package dev.lake.core;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.lake.core.testing.TestSnapshot;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

class CatalogsTest {
  /** A hand-written fake of our own port: two tables, records every resolve call. */
  static final class FakeResolver implements TableResolver {
    final Map<TableRef, Snapshot> tables;
    final List<TableRef> resolved = new ArrayList<>();
    final List<Map<TableRef, Snapshot>> verifiedTogether = new ArrayList<>();

    FakeResolver(Map<TableRef, Snapshot> tables) {
      this.tables = tables;
    }

    @Override
    public String catalog() {
      return "lake";
    }

    @Override
    public Snapshot resolve(TableRef ref) {
      resolved.add(ref);
      Snapshot s = tables.get(ref);
      if (s == null) {
        throw LakeException.tableNotFound(ref);
      }
      return s;
    }

    @Override
    public List<TableRef> listTables() {
      return List.copyOf(tables.keySet());
    }

    @Override
    public void verify(TableRef ref, Snapshot sealed) {
      if (!sealed.equals(tables.get(ref))) {
        throw new LakeException(ErrorCode.SNAPSHOT_GONE, "gone");
      }
    }

    @Override
    public void verifyAll(Map<TableRef, Snapshot> sealed) {
      verifiedTogether.add(Map.copyOf(sealed));
      TableResolver.super.verifyAll(sealed);
    }
  }

  private static final TableRef NATION = TableRef.parse("lake.tpch.nation");
  private static final TableRef SECRET = TableRef.parse("lake.hr.salaries");
  private final FakeResolver lake =
      new FakeResolver(
          Map.of(NATION, new TestSnapshot("/n", 1), SECRET, new TestSnapshot("/s", 1)));
  private final Catalogs catalogs = new Catalogs(List.of(lake));
  private final Principal alice = Principal.of("acme", "alice", Set.of("lake.tpch"));

  @Test
  void resolveAll_deniedTable_isIndistinguishableFromMissing_andNothingIsResolved() {
    // GIVEN a query over a granted table and a denied one
    AdmittedQuery denied =
        AdmittedQuery.of("q", AdmittedQuery.Kind.SELECT, List.of(NATION, SECRET));
    AdmittedQuery missing =
        AdmittedQuery.of("q", AdmittedQuery.Kind.SELECT, List.of(TableRef.parse("lake.tpch.nope")));
    // WHEN / THEN both fail with the same code and message shape, before any resolution
    assertThatThrownBy(() -> catalogs.resolveAll(alice, denied))
        .isInstanceOf(LakeException.class)
        .hasMessage("Table lake.hr.salaries does not exist");
    assertThat(lake.resolved).isEmpty();
    assertThatThrownBy(() -> catalogs.resolveAll(alice, missing))
        .hasMessage("Table lake.tpch.nope does not exist");
  }

  @Test
  void resolveAll_unknownCatalog_isTableNotFound() {
    AdmittedQuery q =
        AdmittedQuery.of(
            "q", AdmittedQuery.Kind.SELECT, List.of(TableRef.parse("iceberg.tpch.nation")));
    Principal p = Principal.of("acme", "alice", Set.of("iceberg.tpch"));
    assertThatThrownBy(() -> catalogs.resolveAll(p, q))
        .hasMessage("Table iceberg.tpch.nation does not exist");
  }

  @Test
  void visibleTables_listsOnlyGrantedTables() {
    assertThat(catalogs.visibleTables(alice)).containsExactly(NATION);
  }

  @Test
  void verifyAll_rechecksGrants_atExecution() {
    SnapshotSet sealed = new SnapshotSet(Map.of(SECRET, new TestSnapshot("/s", 1)));
    assertThatThrownBy(() -> catalogs.verifyAll(alice, sealed))
        .hasMessage("Table lake.hr.salaries does not exist");
  }

  @Test
  void verifyAll_authorizesEveryTableFirst_thenHandsEachCatalogItsTablesTogether() {
    // GIVEN a sealed set of a granted and a denied table
    Map<TableRef, Snapshot> both = new java.util.LinkedHashMap<>();
    both.put(NATION, new TestSnapshot("/n", 1));
    both.put(SECRET, new TestSnapshot("/s", 1));

    // WHEN alice (no grant on the second) verifies THEN it fails before any snapshot check
    assertThatThrownBy(() -> catalogs.verifyAll(alice, new SnapshotSet(both)))
        .hasMessage("Table lake.hr.salaries does not exist");
    assertThat(lake.verifiedTogether).isEmpty();

    // WHEN a principal granted both verifies THEN the catalog checks both in one call
    Principal both2 = Principal.of("acme", "bob", Set.of("lake.tpch", "lake.hr"));
    catalogs.verifyAll(both2, new SnapshotSet(both));
    assertThat(lake.verifiedTogether).containsExactly(both);
  }

  @Test
  void startVerifyAll_refusesDeniedTablesAndFailedLocalChecksAtOnce() {
    // GIVEN a sealed set with a denied table, and one whose snapshot moved on
    SnapshotSet denied = new SnapshotSet(Map.of(SECRET, new TestSnapshot("/s", 1)));
    SnapshotSet stale = new SnapshotSet(Map.of(NATION, new TestSnapshot("/n", 0)));

    // WHEN / THEN the grant check throws before any snapshot check is started
    assertThatThrownBy(() -> catalogs.startVerifyAll(alice, denied))
        .hasMessage("Table lake.hr.salaries does not exist");
    assertThat(lake.verifiedTogether).isEmpty();

    // AND a catalog that checks on the calling thread fails the stale snapshot at once, so the
    // caller executes nothing
    assertThatThrownBy(() -> catalogs.startVerifyAll(alice, stale))
        .isInstanceOf(LakeException.class)
        .satisfies(e -> assertThat(((LakeException) e).code()).isEqualTo(ErrorCode.SNAPSHOT_GONE));
    catalogs
        .startVerifyAll(alice, new SnapshotSet(Map.of(NATION, new TestSnapshot("/n", 1))))
        .await();
  }
}
