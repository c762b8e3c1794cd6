package dev.lake.iceberg.demo;

import static dev.lake.iceberg.demo.IcebergTestTables.PEOPLE;
import static dev.lake.iceberg.demo.IcebergTestTables.partitionKey;
import static dev.lake.iceberg.demo.IcebergTestTables.people;
import static dev.lake.iceberg.demo.IcebergTestTables.person;
import static dev.lake.iceberg.demo.IcebergTestTables.ref;
import static dev.lake.iceberg.demo.OAuth2TestSupport.catchLake;
import static org.assertj.core.api.Assertions.assertThat;

import dev.lake.core.ErrorCode;
import dev.lake.core.LakeException;
import dev.lake.core.ScanRequest;
import dev.lake.core.Snapshot;
import dev.lake.core.TableRef;
import dev.lake.iceberg.IcebergSnapshot;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Table;
import org.apache.iceberg.data.GenericRecord;
import org.apache.iceberg.data.Record;
import org.apache.iceberg.expressions.Expressions;
import org.apache.iceberg.types.Types;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * What a scan of the pinned snapshot returns, against Iceberg's own REST catalog server: deletes
 * applied like Iceberg's generics, columns by field id across schema changes, pushed predicates,
 * and a vanished data file failing without its location.
 */
class IcebergScanExactnessTest {
  @TempDir static Path dir;
  static FederationFixture federation;

  @BeforeAll
  static void start() throws Exception {
    federation = FederationFixture.start(dir);
  }

  @AfterAll
  static void stop() throws Exception {
    federation.close();
  }

  @Test
  void scan_appliesPositionDeletes_likeIcebergGenerics() {
    // GIVEN a v2 table whose data file has rows 1 and 3 deleted by position
    Table t = federation.tables().newTable(PEOPLE, PartitionSpec.unpartitioned());
    DataFile file = DemoTablesSupport.append(t, people(0, 10));
    t.newRowDelta().addDeletes(TableFiles.writePositionDeletes(t, file, 1, 3)).commit();
    TableRef ref = ref(t);

    // WHEN scanned THEN the rows equal Iceberg's generic reader (8 rows)
    IcebergSnapshot s = (IcebergSnapshot) federation.iceberg().resolver().resolve(ref);
    assertThat(scan(ref, s)).hasSize(8).isEqualTo(Rows.generics(t, s.snapshotId()));
  }

  @Test
  void scan_appliesEqualityDeletes_likeIcebergGenerics() {
    // GIVEN a v2 table with an equality delete on id in (2, 5)
    Table t = federation.tables().newTable(PEOPLE, PartitionSpec.unpartitioned());
    DemoTablesSupport.append(t, people(0, 10));
    DemoTablesSupport.deleteWhereKeyIn(t, PEOPLE.select("id"), 2, 5);
    TableRef ref = ref(t);

    // WHEN scanned (all columns, and only a column that is not the delete key)
    IcebergSnapshot s = (IcebergSnapshot) federation.iceberg().resolver().resolve(ref);

    // THEN both equal Iceberg's generic reader
    assertThat(scan(ref, s)).hasSize(8).isEqualTo(Rows.generics(t, s.snapshotId()));
    assertThat(
            Rows.scan(
                federation.iceberg().reader(),
                ref,
                s,
                new ScanRequest(List.of("name"), List.of(), 3, 2),
                federation.allocator()))
        .isEqualTo(Rows.generics(t, s.snapshotId(), "name"));
  }

  @Test
  void scan_readsByFieldId_afterRenameAddAndDropColumn() {
    // GIVEN rows written before and after a rename, an added column and a dropped column
    Table t = federation.tables().newTable(PEOPLE, PartitionSpec.unpartitioned());
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
    IcebergSnapshot now = (IcebergSnapshot) federation.iceberg().resolver().resolve(ref);
    IcebergSnapshot old = new IcebergSnapshot("iceberg", now.tableUuid(), before, "");

    // THEN each reads with its own schema, equal to Iceberg's generic reader
    assertThat(federation.iceberg().reader().schema(ref, now).getFields())
        .extracting(f -> f.getName())
        .containsExactly("id", "full_name", "region", "city");
    assertThat(scan(ref, now)).hasSize(7).isEqualTo(Rows.generics(t, now.snapshotId()));
    assertThat(scan(ref, now)).contains(java.util.Arrays.asList(1L, "p1", 1, null));
    assertThat(federation.iceberg().reader().schema(ref, old).getFields())
        .extracting(f -> f.getName())
        .containsExactly("id", "name", "region", "score");
    assertThat(scan(ref, old)).hasSize(4).isEqualTo(Rows.generics(t, before));
  }

  @Test
  void scan_prunesPartitionsAndFiles_withPushedPredicates() {
    // GIVEN a table partitioned by region with one file per region
    Table t =
        federation
            .tables()
            .newTable(PEOPLE, PartitionSpec.builderFor(PEOPLE).identity("region").build());
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
    IcebergSnapshot s = (IcebergSnapshot) federation.iceberg().resolver().resolve(ref);

    // WHEN scanned without and with "region = 1" (and a string predicate the engine also sends)
    long start = federation.iceberg().plannedDataFiles();
    List<List<Object>> all = scan(ref, s);
    long unfiltered = federation.iceberg().plannedDataFiles() - start;
    ScanRequest filtered =
        new ScanRequest(
            List.of(),
            List.of(
                new ScanRequest.Predicate("REGION", "=", "1", Optional.of("INTEGER")),
                new ScanRequest.Predicate("name", ">=", "'p'", Optional.of("VARCHAR"))),
            1000,
            4);
    start = federation.iceberg().plannedDataFiles();
    List<List<Object>> some =
        Rows.scan(federation.iceberg().reader(), ref, s, filtered, federation.allocator());
    long pruned = federation.iceberg().plannedDataFiles() - start;

    // THEN fewer files are planned and read, and the rows are exactly region 1's
    assertThat(all).hasSize(12);
    assertThat(unfiltered).isEqualTo(3);
    assertThat(pruned).isEqualTo(1);
    assertThat(some)
        .hasSize(4)
        .isEqualTo(Rows.generics(t, s.snapshotId(), Expressions.equal("region", 1)));
  }

  @Test
  void scan_failsWithExternalUnavailable_withoutTheLocation_whenADataFileIsGone() throws Exception {
    // GIVEN a table whose data file vanished from storage
    Table t = federation.tables().newTable(PEOPLE, PartitionSpec.unpartitioned());
    DataFile file = DemoTablesSupport.append(t, people(0, 3));
    Files.delete(Path.of(java.net.URI.create(file.location()).getPath()));
    TableRef ref = ref(t);
    Snapshot s = federation.iceberg().resolver().resolve(ref);

    // WHEN scanned THEN one renewal + retry, then EXTERNAL_UNAVAILABLE naming the table only
    LakeException e = catchLake(() -> scan(ref, s));
    assertThat(e.code()).isEqualTo(ErrorCode.EXTERNAL_UNAVAILABLE);
    assertThat(e.getMessage())
        .startsWith("Reading a data file of " + ref + " failed again after renewing the table")
        .doesNotContain(dir.toString())
        .doesNotContain(".parquet");
  }

  @Test
  void splits_ofDataFilesWithTheirDeletes_readExactlyTheSnapshotsRows() {
    // GIVEN a v2 table of four data files, one with position deletes, plus an equality delete
    Table t = federation.tables().newTable(PEOPLE, PartitionSpec.unpartitioned());
    DataFile first = DemoTablesSupport.append(t, people(0, 10));
    DemoTablesSupport.append(t, people(10, 20));
    DemoTablesSupport.append(t, people(20, 30));
    DemoTablesSupport.append(t, people(30, 40));
    t.newRowDelta().addDeletes(TableFiles.writePositionDeletes(t, first, 1, 3)).commit();
    DemoTablesSupport.deleteWhereKeyIn(t, PEOPLE.select("id"), 12, 25);
    TableRef ref = ref(t);
    IcebergSnapshot s = (IcebergSnapshot) federation.iceberg().resolver().resolve(ref);
    dev.lake.core.SplitSource source = (dev.lake.core.SplitSource) federation.iceberg().reader();

    // WHEN it is cut into splits of about ten rows, at most three
    List<Snapshot> splits = source.splits(ref, s, 10, 3);

    // THEN three splits of whole files, each restricted, whose rows together are the snapshot's
    assertThat(splits).hasSize(3);
    List<List<Object>> together = new ArrayList<>();
    for (Snapshot split : splits) {
      assertThat(((IcebergSnapshot) split).restricted()).isTrue();
      together.addAll(scan(ref, split));
    }
    List<List<Object>> expected = Rows.generics(t, s.snapshotId());
    assertThat(expected).hasSize(36);
    assertThat(together).containsExactlyInAnyOrderElementsOf(expected);
    // AND a split is not split again, and the whole table in one split is the snapshot itself
    assertThat(source.splits(ref, splits.get(0), 1, 8)).containsExactly(splits.get(0));
    assertThat(source.splits(ref, s, 1_000, 8)).containsExactly(s);
    // AND a split's sealed form round-trips through the format's codec
    var node = dev.lake.core.Json.mapper().createObjectNode();
    new dev.lake.iceberg.IcebergFormat().encode((IcebergSnapshot) splits.get(1), node);
    assertThat(new dev.lake.iceberg.IcebergFormat().decode(node)).isEqualTo(splits.get(1));
  }

  static List<List<Object>> scan(TableRef ref, Snapshot s) {
    return federation.scan(ref, s);
  }
}
