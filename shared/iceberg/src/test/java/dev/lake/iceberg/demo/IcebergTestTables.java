package dev.lake.iceberg.demo;

import dev.lake.core.TableRef;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.PartitionKey;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Schema;
import org.apache.iceberg.Table;
import org.apache.iceberg.catalog.Catalog;
import org.apache.iceberg.catalog.Namespace;
import org.apache.iceberg.catalog.SupportsNamespaces;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.data.GenericRecord;
import org.apache.iceberg.data.InternalRecordWrapper;
import org.apache.iceberg.data.Record;
import org.apache.iceberg.types.Types;

/**
 * The table setup shared by the federation and direct-scan tests: Iceberg's own REST catalog server
 * on the local filesystem with the demo tables, one namespace for the tables a test class creates
 * (format v2, unique names), and the {@link #PEOPLE} rows they are filled with.
 */
final class IcebergTestTables implements AutoCloseable {
  static final Schema PEOPLE =
      new Schema(
          Types.NestedField.required(1, "id", Types.LongType.get()),
          Types.NestedField.optional(2, "name", Types.StringType.get()),
          Types.NestedField.optional(3, "region", Types.IntegerType.get()),
          Types.NestedField.optional(4, "score", Types.DecimalType.of(10, 2)));

  private final RestCatalogFixture fixture;
  private final String namespace;
  private final String tablePrefix;
  private final AtomicInteger names = new AtomicInteger();

  private IcebergTestTables(RestCatalogFixture fixture, String namespace, String tablePrefix) {
    this.fixture = fixture;
    this.namespace = namespace;
    this.tablePrefix = tablePrefix;
  }

  /**
   * Starts the catalog under {@code dir} with the demo tables and the namespaces {@code namespace}
   * (where {@link #newTable} creates {@code <tablePrefix><n>}) and {@code others}.
   */
  static IcebergTestTables start(Path dir, String namespace, String tablePrefix, String... others)
      throws Exception {
    RestCatalogFixture fixture = RestCatalogFixture.startLocal(dir);
    try {
      DemoTables.create(fixture.backend());
      SupportsNamespaces namespaces = (SupportsNamespaces) fixture.backend();
      namespaces.createNamespace(Namespace.of(namespace));
      for (String other : others) {
        namespaces.createNamespace(Namespace.of(other));
      }
      return new IcebergTestTables(fixture, namespace, tablePrefix);
    } catch (Exception | Error e) {
      fixture.close();
      throw e;
    }
  }

  RestCatalogFixture fixture() {
    return fixture;
  }

  Catalog backend() {
    return fixture.backend();
  }

  /** A new, empty format-v2 table of {@link #PEOPLE} in this class's namespace. */
  Table newTable(PartitionSpec spec) {
    return newTable(PEOPLE, spec);
  }

  /** A new, empty format-v2 table in this class's namespace. */
  Table newTable(Schema schema, PartitionSpec spec) {
    TableIdentifier id = TableIdentifier.of(namespace, tablePrefix + names.incrementAndGet());
    return backend().createTable(id, schema, spec, v2());
  }

  /**
   * A new table of 10 {@link #PEOPLE}: rows 1 and 3 deleted by position, ids 5 and 7 by equality,
   * then id 5 appended again (a later append is not affected by the earlier equality delete:
   * sequence numbers); 7 rows.
   */
  Table newTableWithDeletes() {
    Table t = newTable(PartitionSpec.unpartitioned());
    DataFile file = DemoTablesSupport.append(t, people(0, 10));
    t.newRowDelta().addDeletes(TableFiles.writePositionDeletes(t, file, 1, 3)).commit();
    DemoTablesSupport.deleteWhereKeyIn(t, PEOPLE.select("id"), 5, 7);
    DemoTablesSupport.append(t, people(5, 6));
    return t;
  }

  /** A new table of {@link #PEOPLE} partitioned by identity(region): 4 rows in each of 3 files. */
  Table newPartitionedTable() {
    Table t = newTable(PartitionSpec.builderFor(PEOPLE).identity("region").build());
    for (int region = 0; region < 3; region++) {
      List<Record> rows = new ArrayList<>();
      for (int i = 0; i < 4; i++) {
        rows.add(person(region * 10 + i, region));
      }
      t.newAppend().appendFile(TableFiles.writeData(t, partitionKey(t, region), rows)).commit();
    }
    return t;
  }

  /** A table and the id of its snapshot before the schema change. */
  record Evolved(Table table, long before) {}

  /**
   * A new table of {@link #PEOPLE} with 4 rows, then a rename ({@code name} → {@code full_name}),
   * an added column ({@code city}), a dropped one ({@code score}) and {@code region} promoted from
   * int to long, then 3 more rows.
   */
  Evolved newEvolvedTable() {
    Table t = newTable(PartitionSpec.unpartitioned());
    DemoTablesSupport.append(t, people(0, 4));
    long before = t.currentSnapshot().snapshotId();
    t.updateSchema()
        .renameColumn("name", "full_name")
        .addColumn("city", Types.StringType.get())
        .deleteColumn("score")
        .updateColumn("region", Types.LongType.get())
        .commit();
    List<Record> later = new ArrayList<>();
    for (int i = 10; i < 13; i++) {
      Record r = GenericRecord.create(t.schema());
      r.setField("id", (long) i);
      r.setField("full_name", "p" + i);
      r.setField("region", (long) (i % 3));
      r.setField("city", "c" + i);
      later.add(r);
    }
    DemoTablesSupport.append(t, later);
    return new Evolved(t, before);
  }

  static Map<String, String> v2() {
    return Map.of("format-version", "2");
  }

  /** The lake name of an Iceberg table: catalog {@code iceberg}, its namespace and name. */
  static TableRef ref(Table t) {
    String[] parts = t.name().split("\\.");
    return new TableRef("iceberg", parts[parts.length - 2], parts[parts.length - 1]);
  }

  /** People {@code from} (inclusive) to {@code to}, in regions {@code i % 3}. */
  static List<Record> people(int from, int to) {
    List<Record> out = new ArrayList<>();
    for (int i = from; i < to; i++) {
      out.add(person(i, i % 3));
    }
    return out;
  }

  static Record person(int i, int region) {
    Record r = GenericRecord.create(PEOPLE);
    r.set(0, (long) i);
    r.set(1, "p" + i);
    r.set(2, region);
    r.set(3, new java.math.BigDecimal(i + ".25"));
    return r;
  }

  /** The partition key of {@code region} in a table partitioned by identity(region). */
  static PartitionKey partitionKey(Table t, int region) {
    PartitionKey key = new PartitionKey(t.spec(), t.schema());
    key.partition(new InternalRecordWrapper(t.schema().asStruct()).wrap(person(0, region)));
    return key;
  }

  @Override
  public void close() throws Exception {
    fixture.close();
  }
}
