package dev.lake.bench;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.VectorUnloader;
import org.apache.arrow.vector.ipc.ArrowReader;
import org.apache.arrow.vector.ipc.message.ArrowRecordBatch;
import org.duckdb.DuckDBResultSet;

/** Loads a Parquet file into memory as Arrow batches (via DuckDB's Arrow export). */
final class ArrowData {
  private ArrowData() {}

  static RawFlightServer.Dataset fromParquet(BufferAllocator allocator, Path file, int batchRows)
      throws Exception {
    List<ArrowRecordBatch> batches = new ArrayList<>();
    try (Connection conn = DriverManager.getConnection("jdbc:duckdb:");
        Statement st = conn.createStatement();
        ResultSet rs =
            st.executeQuery(
                "SELECT * FROM read_parquet('"
                    + file.toAbsolutePath().toString().replace("'", "''")
                    + "')");
        ArrowReader reader =
            (ArrowReader) ((DuckDBResultSet) rs).arrowExportStream(allocator, batchRows)) {
      while (reader.loadNextBatch()) {
        batches.add(new VectorUnloader(reader.getVectorSchemaRoot()).getRecordBatch());
      }
      return new RawFlightServer.Dataset(reader.getVectorSchemaRoot().getSchema(), batches);
    } catch (Exception e) {
      batches.forEach(ArrowRecordBatch::close);
      throw e;
    }
  }

  /** Bytes of Arrow buffers across the batches. */
  static long bytes(RawFlightServer.Dataset d) {
    return d.batches().stream().mapToLong(ArrowRecordBatch::computeBodyLength).sum();
  }
}
