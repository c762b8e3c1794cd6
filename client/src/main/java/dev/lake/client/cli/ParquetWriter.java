package dev.lake.client.cli;

import java.io.IOException;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import org.apache.arrow.c.ArrowArrayStream;
import org.apache.arrow.c.Data;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.ipc.ArrowReader;
import org.duckdb.DuckDBConnection;

/**
 * Parquet through an in-memory DuckDB: the Arrow stream is handed over the C data interface and
 * DuckDB's {@code COPY … TO … (FORMAT parquet)} writes it, row group by row group, so the result
 * streams to the file without being held in memory. DuckDB maps every Arrow type lake produces
 * (decimals keep precision and scale, dates stay dates); files are zstd-compressed.
 */
final class ParquetWriter implements OutputWriter {
  private final BufferAllocator allocator;

  /** {@code allocator} must share its root with the reader's buffers (the client's). */
  ParquetWriter(BufferAllocator allocator) {
    this.allocator = allocator;
  }

  @Override
  public long write(ArrowReader reader, Output out) throws IOException {
    String path = out.path().toString();
    try (ArrowArrayStream stream = ArrowArrayStream.allocateNew(allocator);
        Connection connection = DriverManager.getConnection("jdbc:duckdb:");
        Statement statement = connection.createStatement()) {
      // one thread keeps the row order of the result and the file's bytes deterministic
      statement.execute("SET threads = 1");
      statement.execute("SET preserve_insertion_order = true");
      Data.exportArrayStream(allocator, reader, stream);
      connection.unwrap(DuckDBConnection.class).registerArrowStream("lake_result", stream);
      return statement.executeUpdate(
          "COPY (SELECT * FROM lake_result) TO '"
              + path.replace("'", "''")
              + "' (FORMAT parquet, COMPRESSION zstd, USE_TMP_FILE false)");
    } catch (SQLException e) {
      throw new IOException("cannot write Parquet: " + e.getMessage(), e);
    }
  }
}
