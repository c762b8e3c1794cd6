package dev.lake.bench;

import io.trino.tpch.TpchColumn;
import io.trino.tpch.TpchEntity;
import io.trino.tpch.TpchTable;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.math.BigDecimal;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.apache.iceberg.AppendFiles;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.FileFormat;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Schema;
import org.apache.iceberg.Table;
import org.apache.iceberg.catalog.Catalog;
import org.apache.iceberg.catalog.Namespace;
import org.apache.iceberg.catalog.SupportsNamespaces;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.data.GenericAppenderFactory;
import org.apache.iceberg.data.GenericRecord;
import org.apache.iceberg.data.Record;
import org.apache.iceberg.encryption.EncryptedFiles;
import org.apache.iceberg.io.DataWriter;
import org.apache.iceberg.types.Type;
import org.apache.iceberg.types.Types;

/**
 * TPC-H as an Iceberg table set ({@code tpch.<table>}, format v2, unpartitioned, Parquet data files
 * of at most {@link #ROWS_PER_FILE} rows) written through a catalog's backend, with the same types
 * as the Lance and Parquet copies: BIGINT keys, INTEGER counts, DECIMAL(15,2), DATE, VARCHAR.
 */
final class TpchIceberg {
  static final String NAMESPACE = "tpch";
  static final int ROWS_PER_FILE = 500_000;

  private TpchIceberg() {}

  /** Creates the tables that do not exist yet (one commit per table, so a table is whole). */
  static void ensure(Catalog catalog, double sf) {
    Namespace ns = Namespace.of(NAMESPACE);
    if (catalog instanceof SupportsNamespaces s && !s.namespaceExists(ns)) {
      s.createNamespace(ns);
    }
    for (TpchTable<?> table : TpchTable.getTables()) {
      TableIdentifier id = TableIdentifier.of(ns, table.getTableName());
      if (catalog.tableExists(id) && catalog.loadTable(id).currentSnapshot() == null) {
        catalog.dropTable(id, true); // an interrupted earlier generation: start this table over
      }
      if (!catalog.tableExists(id)) {
        write(catalog, id, table, sf);
      }
    }
  }

  /** Creates {@code namespace.name} holding TPC-H nation: a small table nobody has read yet. */
  static void createNation(Catalog catalog, String namespace, String name) {
    Namespace ns = Namespace.of(namespace);
    if (catalog instanceof SupportsNamespaces s && !s.namespaceExists(ns)) {
      s.createNamespace(ns);
    }
    write(catalog, TableIdentifier.of(ns, name), TpchTable.NATION, 0.01);
  }

  static Schema schema(TpchTable<?> table) {
    List<Types.NestedField> fields = new ArrayList<>();
    int id = 1;
    for (TpchColumn<?> c : table.getColumns()) {
      fields.add(Types.NestedField.required(id++, c.getColumnName(), type(c)));
    }
    return new Schema(fields);
  }

  private static Type type(TpchColumn<?> c) {
    return switch (c.getType().getBase()) {
      case IDENTIFIER -> Types.LongType.get();
      case INTEGER -> Types.IntegerType.get();
      case DATE -> Types.DateType.get();
      case DOUBLE -> Types.DecimalType.of(15, 2);
      case VARCHAR -> Types.StringType.get();
    };
  }

  private static <E extends TpchEntity> void write(
      Catalog catalog, TableIdentifier id, TpchTable<E> table, double sf) {
    Schema schema = schema(table);
    Table t =
        catalog.createTable(
            id, schema, PartitionSpec.unpartitioned(), Map.of("format-version", "2"));
    GenericAppenderFactory factory = new GenericAppenderFactory(schema, t.spec());
    List<TpchColumn<E>> columns = table.getColumns();
    AppendFiles append = t.newAppend();
    DataWriter<Record> writer = null;
    long rows = 0;
    try {
      for (E row : table.createGenerator(sf, 1, 1)) {
        if (writer == null) {
          String location = t.locationProvider().newDataLocation(UUID.randomUUID() + ".parquet");
          writer =
              factory.newDataWriter(
                  EncryptedFiles.plainAsEncryptedOutput(t.io().newOutputFile(location)),
                  FileFormat.PARQUET,
                  null);
        }
        Record r = GenericRecord.create(schema);
        for (int i = 0; i < columns.size(); i++) {
          TpchColumn<E> c = columns.get(i);
          r.set(
              i,
              switch (c.getType().getBase()) {
                case IDENTIFIER -> c.getIdentifier(row);
                case INTEGER -> c.getInteger(row);
                case DATE -> LocalDate.ofEpochDay(c.getDate(row));
                case DOUBLE -> BigDecimal.valueOf(Math.round(c.getDouble(row) * 100), 2);
                case VARCHAR -> c.getString(row);
              });
        }
        writer.write(r);
        if (++rows % ROWS_PER_FILE == 0) {
          writer.close();
          append.appendFile(writer.toDataFile());
          writer = null;
        }
      }
      if (writer != null) {
        writer.close();
        DataFile last = writer.toDataFile();
        append.appendFile(last);
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    append.commit();
  }
}
