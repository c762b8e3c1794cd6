package dev.lake.client.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.lake.client.LakeClient;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import org.apache.arrow.c.ArrowArrayStream;
import org.apache.arrow.c.Data;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.ipc.ArrowFileReader;
import org.apache.arrow.vector.ipc.ArrowReader;
import org.duckdb.DuckDBConnection;

/**
 * Compares an output file with the result lake streams for the same statement, in DuckDB: the
 * reference is the Arrow result itself (through the SDK), the file is read back by DuckDB (Parquet,
 * CSV and JSON with the reference's column types) or by Arrow Java (IPC file). Equal means the same
 * multiset of rows: {@code EXCEPT ALL} both ways is empty and counts match.
 */
final class ResultCheck implements AutoCloseable {
  private final BufferAllocator allocator = new RootAllocator();
  private final DuckDBConnection duck;
  private final List<ArrowArrayStream> streams = new ArrayList<>();

  ResultCheck(LakeClient client, String sql) throws SQLException {
    duck = (DuckDBConnection) DriverManager.getConnection("jdbc:duckdb:");
    register("reference", client.query(sql), client.allocator());
    try (Statement s = duck.createStatement()) {
      s.execute("CREATE TABLE ref AS SELECT * FROM reference");
    }
  }

  Connection connection() {
    return duck;
  }

  /** DuckDB's column types of the reference, e.g. {@code DECIMAL(15,2)}. */
  List<String> types(String relation) throws SQLException {
    List<String> out = new ArrayList<>();
    try (Statement s = duck.createStatement();
        ResultSet rs = s.executeQuery("DESCRIBE SELECT * FROM " + relation)) {
      while (rs.next()) {
        out.add(rs.getString("column_name") + " " + rs.getString("column_type"));
      }
    }
    return out;
  }

  long rows() throws SQLException {
    return count("SELECT count(*) FROM ref");
  }

  /** Asserts the file holds exactly the reference's rows; {@code relation} reads it. */
  void assertSameRows(String relation) throws SQLException {
    assertThat(count("SELECT count(*) FROM " + relation)).isEqualTo(rows());
    assertThat(
            count(
                "SELECT count(*) FROM (SELECT * FROM ref EXCEPT ALL SELECT * FROM "
                    + relation
                    + ")"))
        .isZero();
    assertThat(
            count(
                "SELECT count(*) FROM (SELECT * FROM "
                    + relation
                    + " EXCEPT ALL SELECT * FROM ref)"))
        .isZero();
  }

  String parquet(Path file) {
    return "read_parquet('" + file + "')";
  }

  /** CSV or JSON Lines read with the reference's column types. */
  String typed(String function, Path file) throws SQLException {
    StringBuilder columns = new StringBuilder();
    for (String c : types("ref")) {
      int space = c.indexOf(' ');
      columns
          .append(columns.isEmpty() ? "" : ", ")
          .append('\'')
          .append(c, 0, space)
          .append("': '")
          .append(c.substring(space + 1))
          .append('\'');
    }
    return function
        + "('"
        + file
        + "', columns = {"
        + columns
        + "}"
        + (function.equals("read_csv") ? ", header = true, auto_detect = false)" : ")");
  }

  /** An Arrow IPC file registered as a DuckDB view. */
  String arrowFile(Path file) throws Exception {
    ArrowFileReader reader = new ArrowFileReader(Files.newByteChannel(file), allocator);
    register("arrow_file", reader, allocator);
    try (Statement s = duck.createStatement()) {
      s.execute("CREATE TABLE arrow_out AS SELECT * FROM arrow_file");
    }
    return "arrow_out";
  }

  /** Registers {@code reader} (its buffers from {@code owner}) as a DuckDB relation. */
  private void register(String name, ArrowReader reader, BufferAllocator owner) {
    ArrowArrayStream stream = ArrowArrayStream.allocateNew(owner);
    streams.add(stream);
    Data.exportArrayStream(owner, reader, stream);
    duck.registerArrowStream(name, stream);
  }

  private long count(String sql) throws SQLException {
    try (Statement s = duck.createStatement();
        ResultSet rs = s.executeQuery(sql)) {
      rs.next();
      return rs.getLong(1);
    }
  }

  @Override
  public void close() throws SQLException {
    try {
      duck.close();
    } finally {
      streams.forEach(ArrowArrayStream::close);
      allocator.close();
    }
  }
}
