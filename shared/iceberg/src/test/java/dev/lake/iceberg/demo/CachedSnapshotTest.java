package dev.lake.iceberg.demo;

import static dev.lake.iceberg.demo.IcebergTestTables.PEOPLE;
import static dev.lake.iceberg.demo.IcebergTestTables.people;
import static dev.lake.iceberg.demo.IcebergTestTables.ref;
import static dev.lake.iceberg.demo.IcebergTestTables.v2;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.lake.core.AdmittedQuery;
import dev.lake.core.CacheStats;
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
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.locks.LockSupport;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Table;
import org.apache.iceberg.catalog.Catalog;
import org.apache.iceberg.catalog.TableIdentifier;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Pinned Iceberg snapshots served from the engine's snapshot cache (copied by DuckDB from the
 * reader's own file scan on a snapshot's second read): the copy reads exactly like Iceberg's
 * generic reader (deletes, field ids, partition constants, promotions), and a snapshot that is gone
 * in the catalog is refused even while a copy of it is cached — with the real REST catalog server
 * and the real engine.
 */
class CachedSnapshotTest {
  private static final Duration FILL_WAIT = Duration.ofSeconds(60);

  @TempDir static Path dir;
  static IcebergTestTables tables;
  static Catalog backend;
  static BufferAllocator allocator;
  static IcebergFederation iceberg;
  static DuckDbQueryEngine engine;
  static DuckDbSqlAdmission admission;

  @BeforeAll
  static void start() throws Exception {
    tables = IcebergTestTables.start(dir.resolve("catalog"), "c", "cached_");
    backend = tables.backend();
    allocator = new RootAllocator();
    iceberg =
        IcebergFederation.connect(
            IcebergConfig.fromFlags(tables.fixture().uri().toString(), null, "c"),
            new IcebergFilesConfig(true, Optional.of(dir.resolve("files")), 64L << 20),
            allocator);
    EngineConfig config = EngineConfig.defaults(dir.resolve("spill"));
    assertThat(config.snapshotCacheBytes()).isPositive(); // the cache is on as shipped
    engine = new DuckDbQueryEngine(config, List.of(iceberg.reader()));
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
  void copy_readsPositionAndEqualityDeletes_likeIcebergGenerics() {
    // GIVEN rows 1 and 3 deleted by position, ids 5 and 7 by equality, then a later append
    Table t = tables.newTableWithDeletes();
    TableRef ref = ref(t);
    Snapshot s = iceberg.resolver().resolve(ref);

    // WHEN read until a copy serves it THEN the copy's rows are Iceberg's
    List<List<Object>> rows = readFromCopy("SELECT * FROM " + ref, ref, s);
    assertThat(rows).hasSize(7).isEqualTo(Rows.generics(t, ((IcebergSnapshot) s).snapshotId()));
  }

  @Test
  void copy_readsByFieldId_atEachSnapshotsOwnSchema_afterRenameAddDropAndPromote() {
    // GIVEN rows before and after a rename, an added and a dropped column and int -> long
    IcebergTestTables.Evolved evolved = tables.newEvolvedTable();
    Table t = evolved.table();
    long before = evolved.before();
    TableRef ref = ref(t);
    IcebergSnapshot now = (IcebergSnapshot) iceberg.resolver().resolve(ref);
    IcebergSnapshot old =
        new IcebergSnapshot("iceberg", now.tableUuid(), before, now.metadataLocation());

    // WHEN both snapshots are read until copies serve them
    List<List<Object>> current = readFromCopy("SELECT * FROM " + ref, ref, now);
    List<List<Object>> earlier = readFromCopy("SELECT * FROM " + ref, ref, old);

    // THEN each copy holds its snapshot's rows at its own schema, as Iceberg reads them
    assertThat(current).hasSize(7).isEqualTo(Rows.generics(t, now.snapshotId()));
    assertThat(current).contains(java.util.Arrays.asList(1L, "p1", 1L, null));
    assertThat(earlier).hasSize(4).isEqualTo(Rows.generics(t, before));
  }

  @Test
  void copy_readsIdentityPartitionConstants() {
    // GIVEN a table partitioned by identity(region), one file per region
    Table t = tables.newPartitionedTable();
    TableRef ref = ref(t);
    IcebergSnapshot s = (IcebergSnapshot) iceberg.resolver().resolve(ref);

    // WHEN read until a copy serves it THEN Iceberg's rows, constants included
    assertThat(readFromCopy("SELECT * FROM " + ref, ref, s))
        .hasSize(12)
        .isEqualTo(Rows.generics(t, s.snapshotId()));
  }

  @Test
  void cachedCopy_isRefused_onceTheSnapshotExpires_andItsCopyIsDropped() {
    // GIVEN a sealed snapshot served from a copy, then a newer commit
    Table t = tables.newTable(PartitionSpec.unpartitioned());
    DemoTablesSupport.append(t, people(0, 5));
    TableRef ref = ref(t);
    IcebergSnapshot sealed = (IcebergSnapshot) iceberg.resolver().resolve(ref);
    assertThat(readFromCopy("SELECT * FROM " + ref, ref, sealed)).hasSize(5);
    DemoTablesSupport.append(t, people(5, 9));
    long cached = engine.cacheStats().snapshotBytes();

    // WHEN retention expires the sealed snapshot in the catalog
    t.expireSnapshots().expireSnapshotId(sealed.snapshotId()).commit();

    // THEN the per-execution catalog check refuses it (front door and worker check first)
    String gone = "snapshot " + sealed.snapshotId() + " of " + ref + " is no longer retained";
    assertThatThrownBy(() -> iceberg.resolver().verify(ref, sealed))
        .isInstanceOf(LakeException.class)
        .hasMessage(gone);
    // AND the engine itself refuses the copy from then on, and drops it
    assertThatThrownBy(() -> execute("SELECT * FROM " + ref, ref, sealed))
        .isInstanceOf(LakeException.class)
        .hasMessage(gone)
        .extracting(e -> ((LakeException) e).code())
        .isEqualTo(ErrorCode.SNAPSHOT_GONE);
    assertThat(engine.cacheStats().snapshotBytes()).isLessThan(cached);

    // AND a fresh query of the current snapshot still works
    Snapshot current = iceberg.resolver().resolve(ref);
    assertThat(query("SELECT count(*) FROM " + ref, ref, current)).containsExactly(List.of(9L));
  }

  @Test
  void cachedCopy_isRefused_onceTheTableIsDroppedOrReplaced() {
    // GIVEN a sealed snapshot served from a copy
    Table t = tables.newTable(PartitionSpec.unpartitioned());
    DemoTablesSupport.append(t, people(0, 5));
    TableRef ref = ref(t);
    Snapshot sealed = iceberg.resolver().resolve(ref);
    assertThat(readFromCopy("SELECT * FROM " + ref, ref, sealed)).hasSize(5);
    TableIdentifier id = TableIdentifier.of("c", ref.table());

    // WHEN the table is dropped THEN the check and the engine refuse the copy
    backend.dropTable(id, true);
    String dropped = "table " + ref + " was dropped";
    assertThatThrownBy(() -> iceberg.resolver().verify(ref, sealed)).hasMessage(dropped);
    assertThatThrownBy(() -> execute("SELECT * FROM " + ref, ref, sealed)).hasMessage(dropped);

    // WHEN it is created again under the same name THEN both refuse it as replaced
    DemoTablesSupport.append(
        backend.createTable(id, PEOPLE, PartitionSpec.unpartitioned(), v2()), people(0, 5));
    String replaced = "table " + ref + " was replaced";
    assertThatThrownBy(() -> iceberg.resolver().verify(ref, sealed)).hasMessage(replaced);
    assertThatThrownBy(() -> execute("SELECT * FROM " + ref, ref, sealed)).hasMessage(replaced);
  }

  // --- helpers ---

  /**
   * Reads {@code sql} twice uncached (the second read queues a background copy), waits until the
   * copy exists, then reads it once more and asserts that this read was answered from the copy with
   * the same rows.
   */
  static List<List<Object>> readFromCopy(String sql, TableRef ref, Snapshot s) {
    CacheStats start = engine.cacheStats();
    List<List<Object>> uncached = query(sql, ref, s);
    assertThat(query(sql, ref, s)).isEqualTo(uncached);
    long deadline = System.nanoTime() + FILL_WAIT.toNanos();
    while (engine.cacheStats().snapshotCopies() == start.snapshotCopies()) {
      assertThat(System.nanoTime()).as("a copy within %s", FILL_WAIT).isLessThan(deadline);
      LockSupport.parkNanos(Duration.ofMillis(10).toNanos());
    }
    long hits = engine.cacheStats().snapshotHits();
    List<List<Object>> cached = query(sql, ref, s);
    assertThat(engine.cacheStats().snapshotHits()).as("served from the copy").isEqualTo(hits + 1);
    assertThat(cached).isEqualTo(uncached);
    return cached;
  }

  /** Verifies (as the front door and the worker do before every execution) and runs {@code sql}. */
  static List<List<Object>> query(String sql, TableRef ref, Snapshot s) {
    iceberg.resolver().verify(ref, s);
    return execute(sql, ref, s);
  }

  /** Runs {@code sql} without a catalog check of its own. */
  static List<List<Object>> execute(String sql, TableRef ref, Snapshot s) {
    AdmittedQuery q = admission.admit(sql);
    SnapshotSet set = new SnapshotSet(Map.of(ref, s));
    try (QueryExecution e = engine.execute(q, List.of(), set, allocator)) {
      return Rows.read(e.reader());
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
