package dev.lake.iceberg.demo;

import static dev.lake.iceberg.demo.IcebergTestTables.people;
import static dev.lake.iceberg.demo.IcebergTestTables.ref;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.lake.core.AdmittedQuery;
import dev.lake.core.DataLocations;
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
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.DataFiles;
import org.apache.iceberg.DeleteFile;
import org.apache.iceberg.FileFormat;
import org.apache.iceberg.FileMetadata;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Table;
import org.apache.iceberg.catalog.TableIdentifier;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 24 item 1, hostile: Iceberg tables committed through an allowlisted namespace whose files
 * lie outside the deployment's data locations (the warehouse) are refused with PERMISSION_DENIED
 * naming the table, never the path, before anything opens, copies or links the file — through the
 * real engine (direct reads) and the generic reader — and a fresh query of a good table still
 * succeeds. "Not opened" is proved with a FIFO (opening it for reading would block until the
 * class's timeout) and an empty data-file cache.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class DataLocationsIcebergTest {
  @TempDir static Path dir;
  static IcebergTestTables tables;
  static BufferAllocator allocator;
  static IcebergFederation direct;
  static IcebergFederation generic;
  static DuckDbQueryEngine engine;
  static DuckDbSqlAdmission admission;
  static Path cache;
  static Path outside;
  static Path warehouse;

  @BeforeAll
  static void start() throws Exception {
    tables = IcebergTestTables.start(dir.resolve("catalog"), "h", "hostile_");
    allocator = new RootAllocator();
    cache = dir.resolve("files");
    warehouse = dir.resolve("catalog").resolve("warehouse").toRealPath();
    outside = Files.createDirectories(dir.resolve("outside")).toRealPath();
    DataLocations locations = DataLocations.parse(warehouse + "/", true);
    IcebergConfig config =
        IcebergConfig.fromFlags(tables.fixture().uri().toString(), null, "demo,h");
    direct =
        IcebergFederation.connect(
            config,
            new IcebergFilesConfig(true, Optional.of(cache), 64L << 20),
            Optional.of(locations),
            allocator);
    generic =
        IcebergFederation.connect(
            config,
            new IcebergFilesConfig(false, Optional.empty(), 16L << 20),
            Optional.of(locations),
            allocator);
    engine =
        new DuckDbQueryEngine(
            EngineConfig.defaults(dir.resolve("spill")).withSnapshotCacheBytes(0),
            List.of(direct.reader()));
    admission = new DuckDbSqlAdmission();
  }

  @AfterAll
  static void stop() throws Exception {
    admission.close();
    engine.close();
    direct.close();
    generic.close();
    allocator.close();
    tables.close();
  }

  @Test
  void read_refusesDataFilesOutside_withoutOpeningThem_andOneTextWhetherTheyExist()
      throws Exception {
    // GIVEN a real Parquet file of 5 rows moved out of the warehouse, and a FIFO outside it
    Table source = tables.newTable(PartitionSpec.unpartitioned());
    DataFile real = DemoTablesSupport.append(source, people(0, 5));
    Path moved = Files.move(Path.of(real.location()), outside.resolve("moved.parquet"));
    Path fifo = outside.resolve("fifo.parquet");
    mkfifo(fifo);
    Path symlink = Files.createSymbolicLink(warehouse.resolve("link.parquet"), moved);
    Path hardLink = Files.createLink(warehouse.resolve("hard.parquet"), moved);
    Path fifoInside = warehouse.resolve("fifo-inside.parquet");
    mkfifo(fifoInside);
    List<String> hostile =
        List.of(
            moved.toString(), // another directory
            "file:" + fifo, // would block if opened
            outside.resolve("missing.parquet").toString(), // does not exist
            "/etc/passwd", // a host system file
            "s3://another-bucket/data/x.parquet", // another bucket (no object store here at all)
            warehouse + "/../outside/moved.parquet", // `..` escape
            symlink.toString(), // a symlink under the warehouse to the file outside
            hardLink.toString(), // a second hard link to it
            fifoInside.toString()); // not a regular file
    List<Path> cachedBefore = cached();
    for (String location : hostile) {
      // WHEN a table committed through the allowlisted namespace names it as its one data file
      Table t = tables.newTable(PartitionSpec.unpartitioned());
      t.newAppend().appendFile(dataFile(location, Files.size(moved))).commit();
      TableRef ref = ref(t);
      String expected = DataLocations.outside(ref).getMessage();
      // THEN direct reads through the engine and the generic reader refuse it, naming the table
      Snapshot s = direct.resolver().resolve(ref);
      assertThatThrownBy(() -> query(ref, s))
          .as(location)
          .isInstanceOfSatisfying(
              LakeException.class, e -> assertThat(e.code()).isEqualTo(ErrorCode.PERMISSION_DENIED))
          .hasMessage(expected)
          .hasMessageNotContaining("outside/")
          .hasMessageNotContaining("passwd");
      assertThatThrownBy(() -> Rows.scan(generic.reader(), ref, s, all(), allocator))
          .as(location)
          .hasMessage(expected);
    }
    // AND nothing was copied or linked into the cache, the outside file has its one extra name only
    assertThat(cached()).isEqualTo(cachedBefore);
    assertThat(Files.getAttribute(moved, "unix:nlink")).isEqualTo(2);
    // AND another tenant's fresh query of a good table still succeeds
    assertFreshQuerySucceeds();
  }

  @Test
  void read_refusesADeleteFileOutside_beforeReadingTheDataFile() throws Exception {
    // GIVEN a good data file whose position-delete file was moved out of the warehouse
    Table t = tables.newTable(PartitionSpec.unpartitioned());
    DataFile data = DemoTablesSupport.append(t, people(0, 5));
    DeleteFile deletes = TableFiles.writePositionDeletes(t, data, 1);
    Path moved = Files.move(Path.of(deletes.location()), outside.resolve("deletes.parquet"));
    DeleteFile outsideDeletes =
        FileMetadata.deleteFileBuilder(PartitionSpec.unpartitioned())
            .copy(deletes)
            .withPath(moved.toString())
            .build();
    t.newRowDelta().addDeletes(outsideDeletes).commit();
    TableRef ref = ref(t);
    Snapshot s = direct.resolver().resolve(ref);
    // WHEN read THEN refused naming the table, nothing new cached
    List<Path> cachedBefore = cached();
    assertThatThrownBy(() -> query(ref, s)).hasMessage(DataLocations.outside(ref).getMessage());
    assertThatThrownBy(() -> Rows.scan(generic.reader(), ref, s, all(), allocator))
        .hasMessage(DataLocations.outside(ref).getMessage());
    assertThat(cached()).isEqualTo(cachedBefore);
    assertFreshQuerySucceeds();
  }

  @Test
  void resolve_refusesATableWhoseMetadataLiesOutside() {
    // GIVEN a table created in the allowlisted namespace with its location outside the warehouse
    TableIdentifier id = TableIdentifier.of("h", "elsewhere");
    tables
        .backend()
        .createTable(
            id,
            IcebergTestTables.PEOPLE,
            PartitionSpec.unpartitioned(),
            outside.resolve("elsewhere").toString(),
            Map.of("format-version", "2"));
    TableRef ref = new TableRef("iceberg", "h", "elsewhere");
    // WHEN resolved THEN refused before any manifest or data file is planned
    assertThatThrownBy(() -> direct.resolver().resolve(ref))
        .isInstanceOfSatisfying(
            LakeException.class, e -> assertThat(e.code()).isEqualTo(ErrorCode.PERMISSION_DENIED))
        .hasMessage(DataLocations.outside(ref).getMessage());
    assertFreshQuerySucceeds();
  }

  private static void assertFreshQuerySucceeds() {
    Table good = tables.newTable(PartitionSpec.unpartitioned());
    DemoTablesSupport.append(good, people(0, 4));
    TableRef ref = ref(good);
    assertThat(query(ref, direct.resolver().resolve(ref))).hasSize(4);
    assertThat(Rows.scan(generic.reader(), ref, generic.resolver().resolve(ref), all(), allocator))
        .hasSize(4);
  }

  private static List<Path> cached() throws IOException {
    try (var files = Files.list(cache)) {
      return files.sorted().toList();
    }
  }

  private static dev.lake.core.ScanRequest all() {
    return new dev.lake.core.ScanRequest(List.of(), List.of(), 4, 2);
  }

  private static DataFile dataFile(String location, long size) {
    return DataFiles.builder(PartitionSpec.unpartitioned())
        .withPath(location)
        .withFileSizeInBytes(size)
        .withRecordCount(5)
        .withFormat(FileFormat.PARQUET)
        .build();
  }

  private static void mkfifo(Path path) throws IOException, InterruptedException {
    Process p = new ProcessBuilder("mkfifo", path.toString()).inheritIO().start();
    assertThat(p.waitFor()).isZero();
  }

  private static List<List<Object>> query(TableRef ref, Snapshot s) {
    direct.resolver().verify(ref, s);
    AdmittedQuery q = admission.admit("SELECT * FROM " + ref);
    SnapshotSet set = new SnapshotSet(Map.of(ref, s));
    engine.plan(q, set);
    try (QueryExecution e = engine.execute(q, List.of(), set, allocator)) {
      return new ArrayList<>(Rows.read(e.reader()));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
