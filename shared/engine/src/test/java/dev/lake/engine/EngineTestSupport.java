package dev.lake.engine;

import dev.lake.core.QueryExecution;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.arrow.c.ArrowArrayStream;
import org.apache.arrow.c.Data;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.ipc.ArrowReader;
import org.duckdb.DuckDBConnection;
import org.duckdb.DuckDBResultSet;

/** Helpers shared by engine tests: result rows as text, native DuckDB reference answers. */
final class EngineTestSupport {
  private EngineTestSupport() {}

  /** Every row of {@code reader}, each value as {@code String.valueOf(getObject)}. */
  static List<List<String>> rows(ArrowReader reader) throws Exception {
    List<List<String>> out = new ArrayList<>();
    VectorSchemaRoot root = reader.getVectorSchemaRoot();
    while (reader.loadNextBatch()) {
      for (int r = 0; r < root.getRowCount(); r++) {
        List<String> row = new ArrayList<>();
        for (FieldVector v : root.getFieldVectors()) {
          Object o = v.getObject(r);
          row.add(o == null ? "NULL" : o.toString());
        }
        out.add(row);
      }
    }
    return out;
  }

  static List<List<String>> rows(QueryExecution execution) throws Exception {
    try (execution) {
      return rows(execution.reader());
    }
  }

  /** A plain DuckDB with {@code tables} (name → Lance/Arrow reader) copied into native tables. */
  static DuckDBConnection nativeDuckDb(Map<String, ArrowReader> tables, BufferAllocator allocator)
      throws SQLException {
    DuckDBConnection c =
        (DuckDBConnection) new org.duckdb.DuckDBDriver().connect("jdbc:duckdb:", null);
    for (Map.Entry<String, ArrowReader> e : tables.entrySet()) {
      try (ArrowArrayStream stream = ArrowArrayStream.allocateNew(allocator)) {
        Data.exportArrayStream(allocator, e.getValue(), stream);
        c.registerArrowStream("src_" + e.getKey(), stream);
        try (Statement s = c.createStatement()) {
          s.execute("CREATE TABLE " + e.getKey() + " AS SELECT * FROM src_" + e.getKey());
          s.execute("DROP VIEW src_" + e.getKey());
        }
      }
    }
    return c;
  }

  /** Rows of {@code sql} on a native connection, through the same Arrow path as the engine. */
  static List<List<String>> nativeRows(Connection c, String sql, BufferAllocator allocator)
      throws Exception {
    try (Statement s = c.createStatement();
        ResultSet rs = s.executeQuery(sql);
        ArrowReader r = (ArrowReader) ((DuckDBResultSet) rs).arrowExportStream(allocator, 4096)) {
      return rows(r);
    }
  }
}
