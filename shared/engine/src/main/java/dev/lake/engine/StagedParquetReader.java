package dev.lake.engine;

import dev.lake.core.ForwardingArrowReader;
import java.nio.file.Path;
import java.sql.ResultSet;
import java.sql.Statement;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.ipc.ArrowReader;

/**
 * DuckDB's Arrow export of one staged Parquet file. Closing releases the export, the statement and
 * its connection, then deletes the staged file (if it was given one to own).
 */
final class StagedParquetReader extends ForwardingArrowReader {
  private final ResultSet resultSet;
  private final Statement statement;
  private final AutoCloseable connection;
  private final Path file;

  StagedParquetReader(
      BufferAllocator allocator,
      ArrowReader exported,
      ResultSet resultSet,
      Statement statement,
      AutoCloseable connection,
      Path file) {
    super(allocator, exported);
    this.resultSet = resultSet;
    this.statement = statement;
    this.connection = connection;
    this.file = file;
  }

  @Override
  protected void closeReadSource() {
    DuckDbParquetCodec.closeQuietly(source());
    DuckDbParquetCodec.closeQuietly(resultSet);
    DuckDbParquetCodec.closeQuietly(statement);
    DuckDbParquetCodec.closeQuietly(connection);
    if (file != null) {
      DuckDbParquetCodec.deleteQuietly(file);
    }
  }
}
