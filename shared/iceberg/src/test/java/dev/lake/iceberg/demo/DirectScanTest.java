package dev.lake.iceberg.demo;

import static dev.lake.iceberg.demo.IcebergTestTables.people;
import static dev.lake.iceberg.demo.IcebergTestTables.ref;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.lake.core.AdmittedQuery;
import dev.lake.core.ErrorCode;
import dev.lake.core.LakeException;
import dev.lake.core.QueryExecution;
import dev.lake.core.Snapshot;
import dev.lake.core.SnapshotSet;
import dev.lake.core.TableRef;
import dev.lake.engine.DuckDbQueryEngine;
import dev.lake.engine.DuckDbSqlAdmission;
import dev.lake.engine.EngineConfig;
import dev.lake.iceberg.IcebergConfig;
import dev.lake.iceberg.IcebergFederation;
import dev.lake.iceberg.IcebergFilesConfig;
import dev.lake.iceberg.IcebergSnapshot;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Table;
import org.apache.iceberg.catalog.Catalog;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.data.GenericRecord;
import org.apache.iceberg.data.Record;
import org.apache.iceberg.types.Types;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Direct reads (DuckDB's own Parquet reader over local copies of the pinned plan's files) through
 * the real engine (snapshot cache off), compared with Iceberg's generic reader on the tables of the
 * exactness tests.
 */
class DirectScanTest {
  @TempDir static Path dir;
  static IcebergTestTables tables;
  static RestCatalogFixture fixture;
  static Catalog backend;
  static BufferAllocator allocator;
  static IcebergFederation iceberg;
  static DuckDbQueryEngine engine;
  static DuckDbSqlAdmission admission;
  static Path cache;

  @BeforeAll
  static void start() throws Exception {
    tables = IcebergTestTables.start(dir.resolve("catalog"), "d", "direct_");
    fixture = tables.fixture();
    backend = tables.backend();
    allocator = new RootAllocator();
    cache = dir.resolve("files");
    iceberg =
        IcebergFederation.connect(
            IcebergConfig.fromFlags(fixture.uri().toString(), null, "demo,d"),
            new IcebergFilesConfig(true, Optional.of(cache), 64L << 20),
            allocator);
    // the snapshot cache off: these tests pin the uncached direct reads (CachedSnapshotTest the
    // copies made of them), and a background copy's own file scan would count as a direct read
    engine =
        new DuckDbQueryEngine(
            EngineConfig.defaults(dir.resolve("spill")).withSnapshotCacheBytes(0),
            List.of(iceberg.reader()));
    admission = new DuckDbSqlAdmission();
  }

  @AfterAll
  static void stop() throws Exception {
    admission.close();
    engine.close();
    iceberg.close();
    allocator.close();
    tables.close();
  }

  @Test
  void select_readsDirectly_andEqualsIcebergGenerics() {
    // GIVEN demo.nation (two snapshots)
    Table nation = backend.loadTable(TableIdentifier.of("demo", "nation"));
    TableRef ref = TableRef.parse("iceberg.demo.nation");
    IcebergSnapshot s = (IcebergSnapshot) iceberg.resolver().resolve(ref);
    long before = iceberg.directScans();

    // WHEN read through the engine
    List<List<Object>> rows = query("SELECT * FROM iceberg.demo.nation", ref, s);

    // THEN DuckDB read the files itself, with exactly Iceberg's rows, from the confined cache
    assertThat(iceberg.directScans()).isEqualTo(before + 1);
    assertThat(rows).hasSize(25).isEqualTo(Rows.generics(nation, s.snapshotId()));
    assertThat(cache).isDirectoryContaining("glob:**.parquet");
  }

  @Test
  void select_costsOneCatalogLoad_theVerifyBeforeIt() {
    // GIVEN a resolved table
    Table t = tables.newTable(PartitionSpec.unpartitioned());
    DemoTablesSupport.append(t, people(0, 5));
    TableRef ref = ref(t);
    IcebergSnapshot s = (IcebergSnapshot) iceberg.resolver().resolve(ref);
    long before = fixture.loadTableRequests("d", ref.table());

    // WHEN verified and read twice (as the front door does per DoGet)
    query("SELECT * FROM " + ref, ref, s);
    query("SELECT id FROM " + ref + " WHERE id > 2", ref, s);

    // THEN each DoGet cost exactly one loadTable: the verify's point-load
    assertThat(fixture.loadTableRequests("d", ref.table()) - before).isEqualTo(2);
  }

  @Test
  void explain_estimatesEachScanAtTheSnapshotsRowCount_fromTheTableMetadata() {
    // GIVEN a table of 9 rows in two data files
    Table t = tables.newTable(PartitionSpec.unpartitioned());
    DemoTablesSupport.append(t, people(0, 5));
    DemoTablesSupport.append(t, people(5, 9));
    TableRef ref = ref(t);
    IcebergSnapshot s = (IcebergSnapshot) iceberg.resolver().resolve(ref);

    // WHEN the plan of a direct read is explained
    String plan = query("EXPLAIN SELECT * FROM " + ref, ref, s).toString();

    // THEN DuckDB estimates the scan at the files' row count (not ~1 row per file, which left
    // every join order to chance)
    assertThat(plan).contains("READ_PARQUET").contains("~9 rows");
  }

  @Test
  void select_appliesPositionAndEqualityDeletes_likeIcebergGenerics() {
    // GIVEN rows 1 and 3 deleted by position and ids 5 and 7 by equality
    Table t = tables.newTableWithDeletes();
    TableRef ref = ref(t);
    IcebergSnapshot s = (IcebergSnapshot) iceberg.resolver().resolve(ref);
    long before = iceberg.directScans();

    // WHEN all columns, and only a column that is not the delete key, are read
    List<List<Object>> all = query("SELECT * FROM " + ref, ref, s);
    List<List<Object>> names = query("SELECT name FROM " + ref, ref, s);

    // THEN both equal Iceberg's generic reader and were read directly
    assertThat(all).hasSize(7).isEqualTo(Rows.generics(t, s.snapshotId()));
    assertThat(names).isEqualTo(Rows.generics(t, s.snapshotId(), "name"));
    assertThat(iceberg.directScans()).isEqualTo(before + 2);
  }

  @Test
  void select_readsByFieldId_afterRenameAddAndDropColumn_atBothSnapshots() {
    // GIVEN rows before and after a rename, an added and a dropped column and int -> long
    IcebergTestTables.Evolved evolved = tables.newEvolvedTable();
    Table t = evolved.table();
    long before = evolved.before();
    TableRef ref = ref(t);
    IcebergSnapshot now = (IcebergSnapshot) iceberg.resolver().resolve(ref);
    IcebergSnapshot old = new IcebergSnapshot("iceberg", now.tableUuid(), before, "");

    // WHEN both snapshots are read
    List<List<Object>> current = query("SELECT * FROM " + ref, ref, now);
    List<List<Object>> earlier = query("SELECT * FROM " + ref, ref, old);

    // THEN each reads with its own schema, equal to Iceberg's generic reader
    assertThat(current).hasSize(7).isEqualTo(Rows.generics(t, now.snapshotId()));
    assertThat(current).contains(java.util.Arrays.asList(1L, "p1", 1L, null));
    assertThat(earlier).hasSize(4).isEqualTo(Rows.generics(t, before));
  }

  @Test
  void select_readsIdentityPartitionConstants_andPrunesWithFilters() {
    // GIVEN a table partitioned by region, one file per region
    Table t = tables.newPartitionedTable();
    TableRef ref = ref(t);
    IcebergSnapshot s = (IcebergSnapshot) iceberg.resolver().resolve(ref);

    // WHEN read whole and with a pushed partition predicate
    List<List<Object>> all = query("SELECT * FROM " + ref, ref, s);
    List<List<Object>> one = query("SELECT id, region FROM " + ref + " WHERE region = 1", ref, s);

    // THEN exactly Iceberg's rows
    assertThat(all).hasSize(12).isEqualTo(Rows.generics(t, s.snapshotId()));
    assertThat(one)
        .hasSize(4)
        .allSatisfy(r -> assertThat(r.get(1)).isEqualTo(1))
        .extracting(r -> r.get(0))
        .containsExactly(10L, 11L, 12L, 13L);
  }

  @Test
  void select_readsTheSealedSnapshot_afterANewCommit_andFailsClosedOnceExpired() {
    // GIVEN a sealed snapshot followed by another commit
    Table t = tables.newTable(PartitionSpec.unpartitioned());
    DemoTablesSupport.append(t, people(0, 5));
    TableRef ref = ref(t);
    IcebergSnapshot sealed = (IcebergSnapshot) iceberg.resolver().resolve(ref);
    DemoTablesSupport.append(t, people(5, 9));
    t.refresh();

    // WHEN read THEN the sealed rows only
    assertThat(query("SELECT * FROM " + ref, ref, sealed))
        .hasSize(5)
        .isEqualTo(Rows.generics(t, sealed.snapshotId()));

    // WHEN the snapshot is expired THEN verify + query fail closed, never the new snapshot
    t.expireSnapshots().expireSnapshotId(sealed.snapshotId()).commit();
    assertThatThrownBy(() -> query("SELECT * FROM " + ref, ref, sealed))
        .isInstanceOf(LakeException.class)
        .hasMessage("snapshot " + sealed.snapshotId() + " of " + ref + " is no longer retained")
        .extracting(e -> ((LakeException) e).code())
        .isEqualTo(ErrorCode.SNAPSHOT_GONE);
  }

  @Test
  void select_fallsBackToTheGenericReader_forTypesItCannotRenderExactly() {
    // GIVEN a table with a uuid column
    org.apache.iceberg.Schema schema =
        new org.apache.iceberg.Schema(
            Types.NestedField.required(1, "id", Types.LongType.get()),
            Types.NestedField.optional(2, "u", Types.UUIDType.get()));
    Table t = tables.newTable(schema, PartitionSpec.unpartitioned());
    Record r = GenericRecord.create(schema);
    r.set(0, 1L);
    r.set(1, java.util.UUID.fromString("00000000-0000-0000-0000-000000000001"));
    DemoTablesSupport.append(t, List.of(r));
    TableRef ref = ref(t);
    IcebergSnapshot s = (IcebergSnapshot) iceberg.resolver().resolve(ref);
    long before = iceberg.directScans();

    // WHEN read THEN through the generic reader, with the same rows as before
    assertThat(query("SELECT * FROM " + ref, ref, s))
        .containsExactly(List.of(1L, "00000000-0000-0000-0000-000000000001"));
    assertThat(iceberg.directScans()).isEqualTo(before);
  }

  @Test
  void userSql_cannotNameTheCachedFiles_andTheEngineReadsNothingOutsideIt() throws Exception {
    // GIVEN a cached copy of a data file
    TableRef ref = TableRef.parse("iceberg.demo.nation");
    query("SELECT count(*) FROM iceberg.demo.nation", ref, iceberg.resolver().resolve(ref));
    String file;
    try (var files = Files.list(cache)) {
      file =
          files.filter(p -> p.toString().endsWith(".parquet")).findFirst().orElseThrow().toString();
    }

    // WHEN a client names the file or a file function THEN admission refuses it
    for (String sql :
        List.of(
            "SELECT * FROM read_parquet('" + file + "')",
            "SELECT * FROM '" + file + "'",
            "SELECT * FROM parquet_scan(['" + file + "'])",
            "SELECT * FROM glob('" + cache + "/*')")) {
      assertThatThrownBy(() -> admission.admit(sql)).isInstanceOf(LakeException.class);
    }

    // THEN a fresh query still succeeds
    assertThat(
            query("SELECT count(*) FROM iceberg.demo.nation", ref, iceberg.resolver().resolve(ref)))
        .containsExactly(List.of(25L));
  }

  // --- helpers ---

  /** Verifies (as the front door does before every execution) and runs {@code sql}. */
  static List<List<Object>> query(String sql, TableRef ref, Snapshot s) {
    iceberg.resolver().verify(ref, s);
    AdmittedQuery q = admission.admit(sql);
    SnapshotSet set = new SnapshotSet(Map.of(ref, s));
    engine.plan(q, set);
    try (QueryExecution e = engine.execute(q, List.of(), set, allocator)) {
      return Rows.read(e.reader());
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
