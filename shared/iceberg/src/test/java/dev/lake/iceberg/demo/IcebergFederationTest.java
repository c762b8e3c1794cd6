package dev.lake.iceberg.demo;

import static dev.lake.iceberg.demo.IcebergTestTables.PEOPLE;
import static dev.lake.iceberg.demo.IcebergTestTables.people;
import static dev.lake.iceberg.demo.IcebergTestTables.ref;
import static dev.lake.iceberg.demo.IcebergTestTables.v2;
import static dev.lake.iceberg.demo.OAuth2TestSupport.catchLake;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.lake.core.ErrorCode;
import dev.lake.core.LakeException;
import dev.lake.core.Snapshot;
import dev.lake.core.TableRef;
import dev.lake.iceberg.IcebergFederation;
import dev.lake.iceberg.IcebergSnapshot;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.types.pojo.Schema;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Table;
import org.apache.iceberg.catalog.Catalog;
import org.apache.iceberg.catalog.TableIdentifier;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The resolver and reader against Iceberg's own REST catalog server, on the local filesystem:
 * pinning, verification, single flight, allowlist and listing ({@link IcebergScanExactnessTest}:
 * what a scan returns).
 */
class IcebergFederationTest {
  @TempDir static Path dir;
  static IcebergTestTables tables;
  static RestCatalogFixture fixture;
  static Catalog backend;
  static BufferAllocator allocator;
  static IcebergFederation iceberg;

  static FederationFixture federation;

  @BeforeAll
  static void start() throws Exception {
    federation = FederationFixture.start(dir);
    tables = federation.tables();
    fixture = tables.fixture();
    backend = tables.backend();
    allocator = federation.allocator();
    iceberg = federation.iceberg();
  }

  @AfterAll
  static void stop() throws Exception {
    federation.close();
  }

  @Test
  void resolve_pinsCurrentSnapshot_andScanEqualsIcebergGenerics() {
    // GIVEN demo.nation with two snapshots
    Table nation = backend.loadTable(TableIdentifier.of("demo", "nation"));
    TableRef ref = TableRef.parse("iceberg.demo.nation");

    // WHEN it is resolved and scanned
    IcebergSnapshot s = (IcebergSnapshot) iceberg.resolver().resolve(ref);
    List<List<Object>> rows = scan(ref, s);

    // THEN the snapshot is the current one and the rows are Iceberg's own
    assertThat(s.snapshotId()).isEqualTo(nation.currentSnapshot().snapshotId());
    assertThat(s.tableUuid()).isEqualTo(nation.uuid().toString());
    assertThat(s.catalogName()).isEqualTo("iceberg");
    assertThat(rows).hasSize(25).isEqualTo(Rows.generics(nation, s.snapshotId()));
    assertThat(iceberg.reader().supports(s)).isTrue();
    assertThat(iceberg.reader().schema(ref, s).getFields())
        .extracting(f -> f.getName())
        .containsExactly("n_nationkey", "n_name", "n_regionkey", "n_comment");
  }

  @Test
  void scan_readsTheSealedSnapshot_afterANewCommit() {
    // GIVEN a table resolved at its first snapshot
    Table t = tables.newTable(PEOPLE, PartitionSpec.unpartitioned());
    DemoTablesSupport.append(t, people(0, 5));
    TableRef ref = ref(t);
    Snapshot sealed = iceberg.resolver().resolve(ref);

    // WHEN another snapshot is committed
    DemoTablesSupport.append(t, people(5, 9));
    t.refresh();

    // THEN the sealed snapshot still reads its own rows, and verify passes
    iceberg.resolver().verify(ref, sealed);
    assertThat(scan(ref, sealed))
        .hasSize(5)
        .isEqualTo(Rows.generics(t, ((IcebergSnapshot) sealed).snapshotId()));
  }

  @Test
  void verifyAndScan_failClosed_whenTheSealedSnapshotExpired() {
    // GIVEN a sealed snapshot that retention then expired
    Table t = tables.newTable(PEOPLE, PartitionSpec.unpartitioned());
    DemoTablesSupport.append(t, people(0, 5));
    TableRef ref = ref(t);
    IcebergSnapshot sealed = (IcebergSnapshot) iceberg.resolver().resolve(ref);
    DemoTablesSupport.append(t, people(5, 9));
    t.refresh();
    t.expireSnapshots().expireSnapshotId(sealed.snapshotId()).commit();

    // WHEN verified or scanned THEN SNAPSHOT_GONE with the exact message; never the new snapshot
    String message = "snapshot " + sealed.snapshotId() + " of " + ref + " is no longer retained";
    assertThatThrownBy(() -> iceberg.resolver().verify(ref, sealed))
        .isInstanceOf(LakeException.class)
        .hasMessage(message)
        .extracting(e -> ((LakeException) e).code())
        .isEqualTo(ErrorCode.SNAPSHOT_GONE);
    assertThatThrownBy(() -> scan(ref, sealed)).hasMessage(message);
  }

  @Test
  void verifyAll_loadsAStatementsTablesConcurrently_andStillFailsClosedOnAnExpiredOne()
      throws Exception {
    // GIVEN three tables of one statement, the second sealed at a snapshot retention then expired
    List<TableRef> refs = new ArrayList<>();
    Map<TableRef, Snapshot> sealed = new LinkedHashMap<>();
    long expired = 0;
    for (int i = 0; i < 3; i++) {
      Table t = tables.newTable(PEOPLE, PartitionSpec.unpartitioned());
      DemoTablesSupport.append(t, people(0, 3));
      TableRef ref = ref(t);
      refs.add(ref);
      IcebergSnapshot s = (IcebergSnapshot) iceberg.resolver().resolve(ref);
      sealed.put(ref, s);
      if (i == 1) {
        DemoTablesSupport.append(t, people(3, 5));
        t.refresh();
        t.expireSnapshots().expireSnapshotId(s.snapshotId()).commit();
        expired = s.snapshotId();
      }
    }
    // every loadTable of them waits (bounded) until all three are in flight at the server
    CyclicBarrier allInFlight = new CyclicBarrier(3);
    AtomicBoolean sequential = new AtomicBoolean();
    fixture.onRequest(
        r -> {
          if (r.method().equals("GET")
              && refs.stream().anyMatch(ref -> r.path().endsWith("/tables/" + ref.table()))) {
            try {
              allInFlight.await(20, TimeUnit.SECONDS);
            } catch (Exception e) {
              sequential.set(true);
            }
          }
        });
    try {
      // WHEN the statement's tables are verified together
      long before = refs.stream().mapToLong(r -> fixture.loadTableRequests("t", r.table())).sum();
      String message = "snapshot " + expired + " of " + refs.get(1) + " is no longer retained";

      // THEN the expired snapshot fails closed with its exact message
      assertThatThrownBy(() -> iceberg.resolver().verifyAll(sealed))
          .isInstanceOf(LakeException.class)
          .hasMessage(message)
          .extracting(e -> ((LakeException) e).code())
          .isEqualTo(ErrorCode.SNAPSHOT_GONE);
      // THEN the three loads were in flight at once, one per table
      assertThat(sequential).isFalse();
      assertThat(refs.stream().mapToLong(r -> fixture.loadTableRequests("t", r.table())).sum())
          .isEqualTo(before + 3);
    } finally {
      fixture.onRequest(null);
    }
    // THEN the tables still retained verify together
    sealed.remove(refs.get(1));
    iceberg.resolver().verifyAll(sealed);
  }

  @Test
  void verify_failsClosed_whenTheTableWasDroppedAndRecreated() {
    // GIVEN a sealed snapshot of a table that is then dropped and created again
    Table t = tables.newTable(PEOPLE, PartitionSpec.unpartitioned());
    DemoTablesSupport.append(t, people(0, 5));
    TableRef ref = ref(t);
    Snapshot sealed = iceberg.resolver().resolve(ref);
    TableIdentifier id = TableIdentifier.of("t", ref.table());
    backend.dropTable(id, true);
    Table again = backend.createTable(id, PEOPLE, PartitionSpec.unpartitioned(), v2());
    DemoTablesSupport.append(again, people(0, 5));

    // WHEN verified or scanned THEN it fails closed as replaced
    assertThatThrownBy(() -> iceberg.resolver().verify(ref, sealed))
        .isInstanceOf(LakeException.class)
        .hasMessage("table " + ref + " was replaced");
    assertThatThrownBy(() -> scan(ref, sealed)).hasMessage("table " + ref + " was replaced");
  }

  @Test
  void resolve_isSingleFlight_200ConcurrentCallersOnAColdKeyCauseOneLoadTable() throws Exception {
    // GIVEN a table nobody has resolved yet
    Table t = tables.newTable(PEOPLE, PartitionSpec.unpartitioned());
    DemoTablesSupport.append(t, people(0, 3));
    TableRef ref = ref(t);
    CountDownLatch go = new CountDownLatch(1);
    ExecutorService pool = Executors.newFixedThreadPool(200);
    try {
      List<Future<Snapshot>> futures = new ArrayList<>();
      for (int i = 0; i < 200; i++) {
        futures.add(
            pool.submit(
                () -> {
                  go.await();
                  return iceberg.resolver().resolve(ref);
                }));
      }
      // WHEN 200 callers resolve it at once
      go.countDown();
      List<Snapshot> results = new ArrayList<>();
      for (Future<Snapshot> f : futures) {
        results.add(f.get());
      }
      // THEN the catalog served exactly one loadTable and all got the same snapshot
      assertThat(fixture.loadTableRequests("t", ref.table())).isEqualTo(1);
      assertThat(results).containsOnly(results.get(0));
    } finally {
      pool.shutdownNow();
    }
  }

  @Test
  void notAllowlisted_andMissing_failIdentically_withoutAskingTheCatalog() {
    // GIVEN a table that exists outside the allowlist, and a name that does not exist
    backend.createTable(TableIdentifier.of("secret", "payroll"), PEOPLE);
    TableRef hidden = TableRef.parse("iceberg.secret.payroll");
    TableRef missing = TableRef.parse("iceberg.t.nope");
    fixture.resetRequests();

    // WHEN both are resolved
    LakeException a = catchLake(() -> iceberg.resolver().resolve(hidden));
    LakeException b = catchLake(() -> iceberg.resolver().resolve(missing));

    // THEN both are TABLE_NOT_FOUND with the canonical text; the hidden one never reached the
    // catalog
    assertThat(a.code()).isEqualTo(ErrorCode.TABLE_NOT_FOUND).isEqualTo(b.code());
    assertThat(a).hasMessage("Table iceberg.secret.payroll does not exist");
    assertThat(b).hasMessage("Table iceberg.t.nope does not exist");
    assertThat(fixture.loadTableRequests("secret", "payroll")).isZero();
    assertThat(iceberg.resolver().find(hidden)).isEmpty();
  }

  @Test
  void listTables_showsExplicitTablesThatExist_andOnlyResolvedTablesOfNamespaces() {
    // GIVEN other.listed allowlisted explicitly, and a table in namespace t nobody resolved
    backend.createTable(TableIdentifier.of("other", "listed"), PEOPLE);
    Table unseen = tables.newTable(PEOPLE, PartitionSpec.unpartitioned());
    iceberg.resolver().resolve(TableRef.parse("iceberg.demo.region"));
    fixture.resetRequests();

    // WHEN listed
    List<TableRef> tables = iceberg.resolver().listTables();

    // THEN the explicit table and resolved ones show; the unseen one does not; nothing enumerated
    assertThat(tables)
        .contains(TableRef.parse("iceberg.other.listed"), TableRef.parse("iceberg.demo.region"))
        .doesNotContain(ref(unseen));
    assertThat(fixture.requests())
        .noneMatch(r -> r.method().equals("GET") && r.path().endsWith("/tables"))
        .noneMatch(r -> r.path().endsWith("/namespaces"));
  }

  @Test
  void tableWithoutSnapshot_resolvesToNoSnapshot_andReadsEmpty() {
    // GIVEN a table created but never written
    Table t = tables.newTable(PEOPLE, PartitionSpec.unpartitioned());
    TableRef ref = ref(t);

    // WHEN resolved and scanned
    IcebergSnapshot s = (IcebergSnapshot) iceberg.resolver().resolve(ref);

    // THEN the snapshot id is -1 and the scan is empty but typed
    assertThat(s.snapshotId()).isEqualTo(-1L);
    assertThat(scan(ref, s)).isEmpty();
    Schema schema = iceberg.reader().schema(ref, s);
    assertThat(schema.getFields()).hasSize(4);
  }

  // --- helpers ---

  static List<List<Object>> scan(TableRef ref, Snapshot s) {
    return federation.scan(ref, s);
  }
}
