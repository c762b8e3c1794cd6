package dev.lake.frontdoor;

import java.sql.Types;
import java.util.List;
import org.apache.arrow.vector.VectorSchemaRoot;

/** The SQL types lake results use, as GetXdbcTypeInfo rows (DuckDB names, JDBC type codes). */
final class XdbcTypes {
  private XdbcTypes() {}

  /** One type: name, JDBC code, column size, literal quoting, case sensitivity, exact numeric. */
  record Row(
      String name,
      int dataType,
      Integer columnSize,
      String literalPrefix,
      String literalSuffix,
      boolean caseSensitive,
      Boolean unsigned,
      boolean fixedPrecScale,
      Integer maxScale,
      Integer radix) {}

  /** Searchable: 3 = usable in any WHERE clause. Nullable: 1 = columns may hold NULL. */
  private static final int SEARCHABLE = 3;

  private static final int NULLABLE = 1;

  static final List<Row> ROWS =
      List.of(
          new Row("BOOLEAN", Types.BOOLEAN, 1, null, null, false, null, false, null, null),
          new Row("TINYINT", Types.TINYINT, 3, null, null, false, false, true, 0, 10),
          new Row("SMALLINT", Types.SMALLINT, 5, null, null, false, false, true, 0, 10),
          new Row("INTEGER", Types.INTEGER, 10, null, null, false, false, true, 0, 10),
          new Row("BIGINT", Types.BIGINT, 19, null, null, false, false, true, 0, 10),
          new Row("REAL", Types.REAL, 7, null, null, false, false, false, null, 2),
          new Row("DOUBLE", Types.DOUBLE, 15, null, null, false, false, false, null, 2),
          new Row("DECIMAL", Types.DECIMAL, 38, null, null, false, false, true, 38, 10),
          new Row("VARCHAR", Types.VARCHAR, null, "'", "'", true, null, false, null, null),
          new Row("BLOB", Types.VARBINARY, null, "'", "'::BLOB", false, null, false, null, null),
          new Row("DATE", Types.DATE, 10, "DATE '", "'", false, null, false, null, null),
          new Row("TIME", Types.TIME, 15, "TIME '", "'", false, null, false, null, null),
          new Row(
              "TIMESTAMP",
              Types.TIMESTAMP,
              26,
              "TIMESTAMP '",
              "'",
              false,
              null,
              false,
              null,
              null));

  static void fill(VectorSchemaRoot root, List<Row> rows) {
    for (int i = 0; i < rows.size(); i++) {
      Row r = rows.get(i);
      MetadataHandler.setText(root, "type_name", i, r.name());
      MetadataHandler.setInt(root, "data_type", i, r.dataType());
      MetadataHandler.setInt(root, "column_size", i, r.columnSize());
      MetadataHandler.setText(root, "literal_prefix", i, r.literalPrefix());
      MetadataHandler.setText(root, "literal_suffix", i, r.literalSuffix());
      MetadataHandler.setNull(root, "create_params", i);
      MetadataHandler.setInt(root, "nullable", i, NULLABLE);
      MetadataHandler.setBit(root, "case_sensitive", i, r.caseSensitive());
      MetadataHandler.setInt(root, "searchable", i, SEARCHABLE);
      MetadataHandler.setBit(root, "unsigned_attribute", i, r.unsigned());
      MetadataHandler.setBit(root, "fixed_prec_scale", i, r.fixedPrecScale());
      MetadataHandler.setBit(root, "auto_increment", i, false);
      MetadataHandler.setText(root, "local_type_name", i, r.name());
      MetadataHandler.setInt(root, "minimum_scale", i, r.maxScale() == null ? null : 0);
      MetadataHandler.setInt(root, "maximum_scale", i, r.maxScale());
      MetadataHandler.setInt(root, "sql_data_type", i, r.dataType());
      MetadataHandler.setNull(root, "datetime_subcode", i);
      MetadataHandler.setInt(root, "num_prec_radix", i, r.radix());
      MetadataHandler.setNull(root, "interval_precision", i);
    }
  }
}
