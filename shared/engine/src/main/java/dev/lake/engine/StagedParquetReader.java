package dev.lake.engine;

import dev.lake.core.job.DictionaryFreeReader;
import java.io.IOException;
import java.nio.file.Path;
import java.sql.ResultSet;
import java.sql.Statement;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.ipc.ArrowReader;

/**
 * DuckDB's Arrow export of one staged Parquet file. Closing releases the export, the statement and
 * its connection, then deletes the staged file (if it was given one to own).
 */
final class StagedParquetReader extends DictionaryFreeReader {
  private final ArrowReader exported;
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
    super(allocator);
    this.exported = exported;
    this.resultSet = resultSet;
    this.statement = statement;
    this.connection = connection;
    this.file = file;
  }

  @Override
  public VectorSchemaRoot getVectorSchemaRoot() throws IOException {
    return exported.getVectorSchemaRoot();
  }

  @Override
  public boolean loadNextBatch() throws IOException {
    return exported.loadNextBatch();
  }

  @Override
  public long bytesRead() {
    return exported.bytesRead();
  }

  @Override
  protected void closeReadSource() {
    DuckDbParquetCodec.closeQuietly(exported);
    DuckDbParquetCodec.closeQuietly(resultSet);
    DuckDbParquetCodec.closeQuietly(statement);
    DuckDbParquetCodec.closeQuietly(connection);
    if (file != null) {
      DuckDbParquetCodec.deleteQuietly(file);
    }
  }
}
