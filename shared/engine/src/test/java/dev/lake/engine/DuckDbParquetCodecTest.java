package dev.lake.engine;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.lake.core.ErrorCode;
import dev.lake.core.LakeException;
import dev.lake.core.job.ParquetCodec;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.ipc.ArrowReader;
import org.apache.arrow.vector.types.pojo.Schema;
import org.duckdb.DuckDBConnection;
import org.duckdb.DuckDBResultSet;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class DuckDbParquetCodecTest {
  /** Typical result columns, with NULLs, as DuckDB's Arrow export produces them. */
  private static final String ROWS =
      "SELECT i AS id, 'row-' || i AS name, CAST(i AS DECIMAL(15,2)) / 7 AS price,"
          + " DATE '1992-01-01' + CAST(i % 3000 AS INTEGER) AS day,"
          + " TIMESTAMP '2020-01-01 00:00:00' + INTERVAL (i) SECOND AS at,"
          + " i % 2 = 0 AS even, i / 3.0 AS ratio, CASE WHEN i % 5 = 0 THEN NULL ELSE i END AS maybe"
          + " FROM range(20000) t(i)";

  @TempDir Path dir;
  private BufferAllocator allocator;
  private DuckDbParquetCodec codec;
  private DuckDBConnection source;

  @BeforeEach
  void setUp() throws Exception {
    allocator = new RootAllocator();
    codec = new DuckDbParquetCodec(dir.resolve("staging"));
    Properties p = new Properties();
    p.setProperty(org.duckdb.DuckDBDriver.JDBC_STREAM_RESULTS, "true");
    source = (DuckDBConnection) new org.duckdb.DuckDBDriver().connect("jdbc:duckdb:", p);
  }

  @AfterEach
  void tearDown() throws Exception {
    source.close();
    codec.close();
    allocator.close();
  }

  /** Runs {@code sql} on the source database and hands its Arrow stream to {@code use}. */
  private <T> T withRows(String sql, java.util.function.Function<ArrowReader, T> use)
      throws Exception {
    try (Statement s = source.createStatement();
        DuckDBResultSet rs = (DuckDBResultSet) s.executeQuery(sql)) {
      ArrowReader reader = (ArrowReader) rs.arrowExportStream(allocator, 4096);
      try {
        return use.apply(reader);
      } finally {
        DuckDbParquetCodec.closeQuietly(reader); // the codec's export may have closed it already
      }
    }
  }

  private static List<String> rows(ArrowReader reader) throws Exception {
    List<String> out = new ArrayList<>();
    try (reader) {
      while (reader.loadNextBatch()) {
        VectorSchemaRoot root = reader.getVectorSchemaRoot();
        assertThat(root.getRowCount()).isLessThanOrEqualTo(5000);
        for (int r = 0; r < root.getRowCount(); r++) {
          StringBuilder b = new StringBuilder();
          for (var v : root.getFieldVectors()) {
            b.append(v.getObject(r)).append('|');
          }
          out.add(b.toString());
        }
      }
    }
    return out;
  }

  @Test
  void write_thenRead_returnsTheSameColumnsAndRowsInOrder() throws Exception {
    // GIVEN a typical result, as the engine exports it
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    // WHEN it is written as Parquet
    ParquetCodec.Written written = withRows(ROWS, r -> codec.write(r, allocator, out));
    Schema original = withRows(ROWS + " LIMIT 0", r -> schemaOf(r));
    // THEN the file is zstd Parquet, and decodes to the same columns and rows in order
    byte[] bytes = out.toByteArray();
    assertThat(written.bytes()).isEqualTo(bytes.length);
    assertThat(new String(bytes, 0, 4, java.nio.charset.StandardCharsets.US_ASCII))
        .isEqualTo("PAR1");
    assertThat(written.decodedSchema()).isEqualTo(original);
    List<String> expected = withRows(ROWS, r -> unchecked(() -> rows(r)));
    List<String> actual =
        rows(codec.read(new ByteArrayInputStream(bytes), bytes.length, 5000, allocator));
    assertThat(actual).hasSize(20_000).isEqualTo(expected);
    assertThat(Files.list(dir.resolve("staging"))).isEmpty();
  }

  @Test
  void read_ofBytesThatAreNotParquet_failsClean_andTheNextReadWorks() throws Exception {
    // GIVEN garbage, and a valid part
    byte[] garbage = "PAR1 this is not a parquet file PAR1".getBytes();
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    withRows("SELECT 1 AS one", r -> codec.write(r, allocator, out));
    // WHEN garbage is read THEN a clean rejection, nothing staged left behind
    assertThatThrownBy(
            () ->
                rows(
                    codec.read(new ByteArrayInputStream(garbage), garbage.length, 1000, allocator)))
        .isInstanceOfSatisfying(
            LakeException.class, e -> assertThat(e.code()).isEqualTo(ErrorCode.INTERNAL))
        .hasMessageContaining("Result part rejected");
    assertThatThrownBy(
            () -> codec.read(new ByteArrayInputStream(out.toByteArray()), 10, 1000, allocator))
        .isInstanceOf(LakeException.class)
        .hasMessageContaining("larger than its sealed size");
    assertThat(Files.list(dir.resolve("staging"))).isEmpty();
    // AND the next read of a valid part works
    byte[] ok = out.toByteArray();
    assertThat(rows(codec.read(new ByteArrayInputStream(ok), ok.length, 1000, allocator)))
        .containsExactly("1|");
  }

  @Test
  void write_whoseBatchesFail_propagatesAFailure_andStagesNothing() throws Exception {
    // GIVEN a stream that fails after its first batch
    // WHEN it is written THEN the write fails and no staged file remains
    assertThatThrownBy(
            () ->
                withRows(
                    "SELECT i FROM range(100000) t(i)",
                    r ->
                        codec.write(
                            new FailingAfterOne(allocator, r),
                            allocator,
                            new ByteArrayOutputStream())))
        .isInstanceOf(LakeException.class);
    assertThat(Files.list(dir.resolve("staging"))).isEmpty();
  }

  private static Schema schemaOf(ArrowReader r) {
    try {
      return r.getVectorSchemaRoot().getSchema();
    } catch (java.io.IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
  }

  private interface Io<T> {
    T get() throws Exception;
  }

  private static <T> T unchecked(Io<T> io) {
    try {
      return io.get();
    } catch (Exception e) {
      throw new IllegalStateException(e);
    }
  }

  /** Passes one batch of {@code source}, then throws. */
  private static final class FailingAfterOne extends ArrowReader {
    private final ArrowReader source;
    private int loaded;

    FailingAfterOne(BufferAllocator allocator, ArrowReader source) {
      super(allocator);
      this.source = source;
    }

    @Override
    public VectorSchemaRoot getVectorSchemaRoot() throws java.io.IOException {
      return source.getVectorSchemaRoot();
    }

    @Override
    public boolean loadNextBatch() throws java.io.IOException {
      if (loaded++ > 0) {
        throw new LakeException(ErrorCode.CANCELLED, "stopped");
      }
      return source.loadNextBatch();
    }

    @Override
    public long bytesRead() {
      return 0;
    }

    @Override
    protected void closeReadSource() {}

    @Override
    protected Schema readSchema() throws java.io.IOException {
      return source.getVectorSchemaRoot().getSchema();
    }
  }
}
