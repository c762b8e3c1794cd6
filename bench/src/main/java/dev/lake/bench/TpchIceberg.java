package dev.lake.bench;

import dev.lake.core.SqlQuoting;
import io.trino.tpch.TpchColumn;
import io.trino.tpch.TpchTable;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.apache.iceberg.AppendFiles;
import org.apache.iceberg.DataFiles;
import org.apache.iceberg.FileFormat;
import org.apache.iceberg.MetricsConfig;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Schema;
import org.apache.iceberg.Table;
import org.apache.iceberg.catalog.Catalog;
import org.apache.iceberg.catalog.Namespace;
import org.apache.iceberg.catalog.SupportsNamespaces;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.io.InputFile;
import org.apache.iceberg.parquet.ParquetUtil;
import org.apache.iceberg.types.Type;
import org.apache.iceberg.types.Types;

/**
 * TPC-H as an Iceberg table set ({@code tpch.<table>}, format v2, unpartitioned, Parquet data files
 * of at most {@link #ROWS_PER_FILE} rows: one per table up to SF 1) written through a catalog's
 * backend from the Parquet baseline files: the same rows, types (BIGINT keys, INTEGER counts,
 * DECIMAL(15,2), DATE, VARCHAR), codec (Snappy) and row groups (122,880 rows) as the files DuckDB
 * reads in the baselines, so the Iceberg figures compare read paths, not file layouts.
 */
final class TpchIceberg {
  static final String NAMESPACE = "tpch";

  /**
   * 64 of DuckDB's 122,880-row groups per file: row groups line up with the baseline's, and every
   * table up to SF 1 (lineitem: 6.0 M rows) is one file, as the baseline's is. (Four groups per
   * file split SF 0.1's lineitem in two, which cost DuckDB 8–12 % on Q1 and Q14 alone.)
   */
  static final int ROWS_PER_FILE = 64 * 122_880;

  private TpchIceberg() {}

  /** Creates the tables that do not exist yet (one commit per table, so a table is whole). */
  static void ensure(Catalog catalog, Path parquet) {
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
        write(catalog, id, table, parquet);
      }
    }
  }

  /** Creates {@code namespace.name} holding TPC-H nation: a small table nobody has read yet. */
  static void createNation(Catalog catalog, String namespace, String name, Path parquet) {
    Namespace ns = Namespace.of(namespace);
    if (catalog instanceof SupportsNamespaces s && !s.namespaceExists(ns)) {
      s.createNamespace(ns);
    }
    write(catalog, TableIdentifier.of(ns, name), TpchTable.NATION, parquet);
  }

  static Schema schema(TpchTable<?> table) {
    List<Types.NestedField> fields = new ArrayList<>();
    int id = 1;
    for (TpchColumn<?> c : table.getColumns()) {
      // optional, like the columns DuckDB writes (the rows have no nulls)
      fields.add(Types.NestedField.optional(id++, c.getColumnName(), type(c)));
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

  /**
   * Writes {@code table} as the Parquet baseline's own bytes layout: DuckDB {@code COPY} of
   * row-number ranges of the baseline file (same writer, Snappy, 122,880-row groups), with each
   * column's Iceberg field id, registered with metrics read from the written footer.
   */
  private static void write(Catalog catalog, TableIdentifier id, TpchTable<?> table, Path parquet) {
    Schema schema = schema(table);
    Table t =
        catalog.createTable(
            id, schema, PartitionSpec.unpartitioned(), Map.of("format-version", "2"));
    String source =
        SqlQuoting.literal(parquet.resolve(table.getTableName() + ".parquet").toString());
    StringBuilder fieldIds = new StringBuilder();
    for (Types.NestedField f : schema.columns()) {
      fieldIds.append(fieldIds.length() == 0 ? "" : ", ").append(f.name()).append(": ");
      fieldIds.append(f.fieldId());
    }
    AppendFiles append = t.newAppend();
    try (Connection conn = DriverManager.getConnection("jdbc:duckdb:");
        Statement st = conn.createStatement()) {
      long rows;
      try (ResultSet rs = st.executeQuery("SELECT count(*) FROM read_parquet(" + source + ")")) {
        rs.next();
        rows = rs.getLong(1);
      }
      for (long from = 0; from < Math.max(rows, 1); from += ROWS_PER_FILE) {
        String location = t.locationProvider().newDataLocation(UUID.randomUUID() + ".parquet");
        String local = location.startsWith("file:") ? URI.create(location).getPath() : location;
        Files.createDirectories(Path.of(local).getParent());
        st.execute(
            "COPY (SELECT * EXCLUDE (file_row_number) FROM read_parquet("
                + source
                + ", file_row_number = true) WHERE file_row_number >= "
                + from
                + " AND file_row_number < "
                + (from + ROWS_PER_FILE)
                + " ORDER BY file_row_number) TO "
                + SqlQuoting.literal(local)
                + " (FORMAT parquet, FIELD_IDS {"
                + fieldIds
                + "})");
        InputFile in = t.io().newInputFile(location);
        append.appendFile(
            DataFiles.builder(t.spec())
                .withInputFile(in)
                .withFormat(FileFormat.PARQUET)
                .withMetrics(ParquetUtil.fileMetrics(in, MetricsConfig.forTable(t)))
                .build());
      }
    } catch (SQLException e) {
      throw new IllegalStateException("writing Iceberg data files of " + id + " failed", e);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    append.commit();
  }
}
