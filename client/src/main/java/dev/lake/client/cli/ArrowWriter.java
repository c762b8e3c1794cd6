package dev.lake.client.cli;

import java.io.IOException;
import java.nio.channels.Channels;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.ipc.ArrowFileWriter;
import org.apache.arrow.vector.ipc.ArrowReader;

/** The Arrow IPC file format (readable by pyarrow, DuckDB's arrow extension, Arrow Java, …). */
final class ArrowWriter implements OutputWriter {
  @Override
  public long write(ArrowReader reader, Output out) throws IOException {
    VectorSchemaRoot root = reader.getVectorSchemaRoot();
    long rows = 0;
    try (ArrowFileWriter writer =
        new ArrowFileWriter(root, null, Channels.newChannel(out.stream()))) {
      writer.start();
      while (reader.loadNextBatch()) {
        writer.writeBatch();
        rows += root.getRowCount();
      }
      writer.end();
    }
    return rows;
  }
}
