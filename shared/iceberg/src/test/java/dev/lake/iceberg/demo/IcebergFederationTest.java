package dev.lake.iceberg.demo;

import static dev.lake.iceberg.demo.IcebergTestTables.PEOPLE;
import static dev.lake.iceberg.demo.IcebergTestTables.partitionKey;
import static dev.lake.iceberg.demo.IcebergTestTables.people;
import static dev.lake.iceberg.demo.IcebergTestTables.person;
import static dev.lake.iceberg.demo.IcebergTestTables.ref;
import static dev.lake.iceberg.demo.IcebergTestTables.v2;
import static dev.lake.iceberg.demo.OAuth2TestSupport.catchLake;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.lake.core.ErrorCode;
import dev.lake.core.LakeException;
import dev.lake.core.ScanRequest;
import dev.lake.core.Snapshot;
import dev.lake.core.TableRef;
import dev.lake.iceberg.IcebergConfig;
import dev.lake.iceberg.IcebergFederation;
import dev.lake.iceberg.IcebergSnapshot;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.types.pojo.Schema;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Table;
import org.apache.iceberg.catalog.Catalog;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.data.GenericRecord;
import org.apache.iceberg.data.Record;
import org.apache.iceberg.expressions.Expressions;
import org.apache.iceberg.types.Types;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The resolver and reader against Iceberg's own REST catalog server, on the local filesystem. */
class IcebergFederationTest {
  @TempDir static Path dir;
  static IcebergTestTables tables;
  static RestCatalogFixture fixture;
  static Catalog backend;
  static BufferAllocator allocator;
  static IcebergFederation iceberg;

  @BeforeAll
  static void start() throws Exception {
    tables = IcebergTestTables.start(dir, "t", "table_", "secret", "other");
    fixture = tables.fixture();
    backend = tables.backend();
    allocator = new RootAllocator();
    iceberg =
        IcebergFederation.connect(
            IcebergConfig.fromFlags(fixture.uri().toString(), null, "demo,t,other.listed"),
            allocator);
  }

  @AfterAll
  static void stop() throws Exception {
    iceberg.close();
    allocator.close();
    tables.close();
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
  void scan_appliesPositionDeletes_likeIcebergGenerics() {
    // GIVEN a v2 table whose data file has rows 1 and 3 deleted by position
    Table t = tables.newTable(PEOPLE, PartitionSpec.unpartitioned());
    DataFile file = DemoTablesSupport.append(t, people(0, 10));
    t.newRowDelta().addDeletes(TableFiles.writePositionDeletes(t, file, 1, 3)).commit();
    TableRef ref = ref(t);

    // WHEN scanned THEN the rows equal Iceberg's generic reader (8 rows)
    IcebergSnapshot s = (IcebergSnapshot) iceberg.resolver().resolve(ref);
    assertThat(scan(ref, s)).hasSize(8).isEqualTo(Rows.generics(t, s.snapshotId()));
  }

  @Test
  void scan_appliesEqualityDeletes_likeIcebergGenerics() {
    // GIVEN a v2 table with an equality delete on id in (2, 5)
    Table t = tables.newTable(PEOPLE, PartitionSpec.unpartitioned());
    DemoTablesSupport.append(t, people(0, 10));
    org.apache.iceberg.Schema key = PEOPLE.select("id");
    List<Record> keys = new ArrayList<>();
    for (long id : new long[] {2, 5}) {
      Record k = GenericRecord.create(key);
      k.set(0, id);
      keys.add(k);
    }
    t.newRowDelta().addDeletes(TableFiles.writeEqualityDeletes(t, key, null, keys)).commit();
    TableRef ref = ref(t);

    // WHEN scanned (all columns, and only a column that is not the delete key)
    IcebergSnapshot s = (IcebergSnapshot) iceberg.resolver().resolve(ref);

    // THEN both equal Iceberg's generic reader
    assertThat(scan(ref, s)).hasSize(8).isEqualTo(Rows.generics(t, s.snapshotId()));
    assertThat(
            Rows.scan(
                iceberg.reader(),
                ref,
                s,
                new ScanRequest(List.of("name"), List.of(), 3, 2),
                allocator))
        .isEqualTo(Rows.generics(t, s.snapshotId(), "name"));
  }

  @Test
  void scan_readsByFieldId_afterRenameAddAndDropColumn() {
    // GIVEN rows written before and after a rename, an added column and a dropped column
    Table t = tables.newTable(PEOPLE, PartitionSpec.unpartitioned());
    DemoTablesSupport.append(t, people(0, 4));
    long before = t.currentSnapshot().snapshotId();
    t.updateSchema()
        .renameColumn("name", "full_name")
        .addColumn("city", Types.StringType.get())
        .deleteColumn("score")
        .commit();
    List<Record> later = new ArrayList<>();
    for (int i = 10; i < 13; i++) {
      Record r = GenericRecord.create(t.schema());
      r.setField("id", (long) i);
      r.setField("full_name", "p" + i);
      r.setField("region", i % 3);
      r.setField("city", "c" + i);
      later.add(r);
    }
    DemoTablesSupport.append(t, later);
    TableRef ref = ref(t);

    // WHEN the current snapshot and the old one are read
    IcebergSnapshot now = (IcebergSnapshot) iceberg.resolver().resolve(ref);
    IcebergSnapshot old = new IcebergSnapshot("iceberg", now.tableUuid(), before, "");

    // THEN each reads with its own schema, equal to Iceberg's generic reader
    assertThat(iceberg.reader().schema(ref, now).getFields())
        .extracting(f -> f.getName())
        .containsExactly("id", "full_name", "region", "city");
    assertThat(scan(ref, now)).hasSize(7).isEqualTo(Rows.generics(t, now.snapshotId()));
    assertThat(scan(ref, now)).contains(java.util.Arrays.asList(1L, "p1", 1, null));
    assertThat(iceberg.reader().schema(ref, old).getFields())
        .extracting(f -> f.getName())
        .containsExactly("id", "name", "region", "score");
    assertThat(scan(ref, old)).hasSize(4).isEqualTo(Rows.generics(t, before));
  }

  @Test
  void scan_prunesPartitionsAndFiles_withPushedPredicates() {
    // GIVEN a table partitioned by region with one file per region
    Table t = tables.newTable(PEOPLE, PartitionSpec.builderFor(PEOPLE).identity("region").build());
    for (int region = 0; region < 3; region++) {
      List<Record> rows = new ArrayList<>();
      for (int i = 0; i < 4; i++) {
        rows.add(person(region * 10 + i, region));
      }
      Record partition = GenericRecord.create(t.spec().partitionType());
      partition.set(0, region);
      DataFile f = TableFiles.writeData(t, partitionKey(t, region), rows);
      t.newAppend().appendFile(f).commit();
    }
    TableRef ref = ref(t);
    IcebergSnapshot s = (IcebergSnapshot) iceberg.resolver().resolve(ref);

    // WHEN scanned without and with "region = 1" (and a string predicate the engine also sends)
    long start = iceberg.plannedDataFiles();
    List<List<Object>> all = scan(ref, s);
    long unfiltered = iceberg.plannedDataFiles() - start;
    ScanRequest filtered =
        new ScanRequest(
            List.of(),
            List.of(
                new ScanRequest.Predicate("REGION", "=", "1", Optional.of("INTEGER")),
                new ScanRequest.Predicate("name", ">=", "'p'", Optional.of("VARCHAR"))),
            1000,
            4);
    start = iceberg.plannedDataFiles();
    List<List<Object>> some = Rows.scan(iceberg.reader(), ref, s, filtered, allocator);
    long pruned = iceberg.plannedDataFiles() - start;

    // THEN fewer files are planned and read, and the rows are exactly region 1's
    assertThat(all).hasSize(12);
    assertThat(unfiltered).isEqualTo(3);
    assertThat(pruned).isEqualTo(1);
    assertThat(some)
        .hasSize(4)
        .isEqualTo(Rows.generics(t, s.snapshotId(), Expressions.equal("region", 1)));
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

  @Test
  void scan_failsWithExternalUnavailable_withoutTheLocation_whenADataFileIsGone() throws Exception {
    // GIVEN a table whose data file vanished from storage
    Table t = tables.newTable(PEOPLE, PartitionSpec.unpartitioned());
    DataFile file = DemoTablesSupport.append(t, people(0, 3));
    Files.delete(Path.of(java.net.URI.create(file.location()).getPath()));
    TableRef ref = ref(t);
    Snapshot s = iceberg.resolver().resolve(ref);

    // WHEN scanned THEN one renewal + retry, then EXTERNAL_UNAVAILABLE naming the table only
    LakeException e = catchLake(() -> scan(ref, s));
    assertThat(e.code()).isEqualTo(ErrorCode.EXTERNAL_UNAVAILABLE);
    assertThat(e.getMessage())
        .startsWith("Reading a data file of " + ref + " failed again after renewing the table")
        .doesNotContain(dir.toString())
        .doesNotContain(".parquet");
  }

  // --- helpers ---

  static List<List<Object>> scan(TableRef ref, Snapshot s) {
    return Rows.scan(
        iceberg.reader(), ref, s, new ScanRequest(List.of(), List.of(), 4, 3), allocator);
  }
}
