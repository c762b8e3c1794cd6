package dev.lake.engine;

import static java.util.Objects.requireNonNull;

import dev.lake.core.ErrorCode;
import dev.lake.core.LakeException;
import dev.lake.core.SplitPlan;
import dev.lake.core.SqlQuoting;
import dev.lake.core.job.ParquetCodec;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.arrow.c.ArrowArrayStream;
import org.apache.arrow.c.Data;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.ipc.ArrowReader;
import org.apache.arrow.vector.types.pojo.Schema;
import org.duckdb.DuckDBConnection;
import org.duckdb.DuckDBResultSet;

/**
 * {@link ParquetCodec} over a private in-memory DuckDB instance (its built-in Parquet reader and
 * writer; no extension is ever installed or loaded). The instance is not the engine's: tenant
 * statements never reach it, and it runs only the two fixed statements below over files this codec
 * named itself in its own {@code directory} (and lake's own combine statements over registered
 * Arrow streams), the only place it may touch ({@code allowed_directories} with external access
 * otherwise off, configuration locked). One thread keeps rows in order. Files live only for one
 * call (write) or one reader (read).
 */
public final class DuckDbParquetCodec implements ParquetCodec {
  private static final long MEMORY_LIMIT = 256L << 20;
  private static final int COMBINE_BATCH_ROWS = 16_384;

  private final Path directory;
  private final DuckDBConnection database;
  private final AtomicLong ids = new AtomicLong();

  /** A codec staging its files in {@code directory} (created if missing). */
  public DuckDbParquetCodec(Path directory) {
    this.directory = requireNonNull(directory, "directory is null").toAbsolutePath().normalize();
    try {
      Files.createDirectories(this.directory);
      Properties properties = new Properties();
      properties.setProperty(org.duckdb.DuckDBDriver.JDBC_STREAM_RESULTS, "true");
      database =
          (DuckDBConnection) new org.duckdb.DuckDBDriver().connect("jdbc:duckdb:", properties);
      try (Statement s = database.createStatement()) {
        s.execute("SET memory_limit = '" + (MEMORY_LIMIT >> 20) + "MiB'");
        s.execute("SET threads = 1");
        s.execute("SET preserve_insertion_order = true");
        s.execute("SET autoinstall_known_extensions = false");
        s.execute("SET autoload_known_extensions = false");
        s.execute("SET allow_community_extensions = false");
        s.execute("SET allowed_directories = [" + SqlQuoting.literal(this.directory + "/") + "]");
        s.execute("SET enable_external_access = false");
        s.execute("SET lock_configuration = true");
      }
    } catch (SQLException | IOException e) {
      throw new LakeException(ErrorCode.INTERNAL, "Cannot start the Parquet result codec", e);
    }
  }

  @Override
  public Written write(ArrowReader batches, BufferAllocator allocator, OutputStream out) {
    requireNonNull(batches, "batches is null");
    requireNonNull(allocator, "allocator is null");
    requireNonNull(out, "out is null");
    long id = ids.incrementAndGet();
    Path file = directory.resolve("w-" + id + ".parquet");
    try {
      try (DuckDBConnection c = (DuckDBConnection) database.duplicate();
          ArrowArrayStream stream = ArrowArrayStream.allocateNew(allocator);
          Statement s = c.createStatement()) {
        Data.exportArrayStream(allocator, batches, stream);
        String name = "lake_parquet_part_" + id;
        c.registerArrowStream(name, stream);
        s.execute(
            "COPY (SELECT * FROM "
                + name
                + ") TO "
                + SqlQuoting.literal(file.toString())
                + " (FORMAT parquet, COMPRESSION zstd)");
      }
      Schema decoded;
      try (ArrowReader check = open(file, 1, allocator, false)) {
        decoded = check.getVectorSchemaRoot().getSchema();
      }
      long size = Files.size(file);
      Files.copy(file, out);
      return new Written(size, decoded);
    } catch (SQLException e) {
      throw new LakeException(ErrorCode.QUERY_FAILED, "Writing a Parquet result part failed", e);
    } catch (IOException e) {
      throw new LakeException(
          ErrorCode.EXTERNAL_UNAVAILABLE, "Staging a Parquet result part failed", e);
    } finally {
      deleteQuietly(file);
    }
  }

  @Override
  public ArrowReader read(InputStream in, long maxBytes, int batchRows, BufferAllocator allocator) {
    requireNonNull(in, "in is null");
    requireNonNull(allocator, "allocator is null");
    Path file = directory.resolve("r-" + ids.incrementAndGet() + ".parquet");
    try {
      try (OutputStream out = Files.newOutputStream(file)) {
        in.transferTo(new Bounded(out, maxBytes));
      }
      return open(file, batchRows, allocator, true);
    } catch (TooLarge e) {
      deleteQuietly(file);
      throw rejected("it is larger than its sealed size");
    } catch (IOException e) {
      deleteQuietly(file);
      throw new LakeException(
          ErrorCode.EXTERNAL_UNAVAILABLE, "Staging a Parquet result part failed", e);
    } catch (RuntimeException e) {
      deleteQuietly(file);
      throw e;
    }
  }

  @Override
  public ArrowReader combine(String sql, List<ArrowReader> partials, BufferAllocator allocator) {
    requireNonNull(sql, "sql is null");
    requireNonNull(allocator, "allocator is null");
    if (partials.isEmpty()) {
      throw new IllegalArgumentException("a combine reads at least one input");
    }
    long id = ids.incrementAndGet();
    List<ArrowArrayStream> streams = new ArrayList<>();
    DuckDBConnection c = null;
    Statement s = null;
    try {
      c = (DuckDBConnection) database.duplicate();
      StringBuilder union = new StringBuilder();
      for (int i = 0; i < partials.size(); i++) {
        ArrowArrayStream stream = ArrowArrayStream.allocateNew(allocator);
        streams.add(stream);
        // the stream owns its reader from here on: closing the stream closes it
        Data.exportArrayStream(allocator, partials.get(i), stream);
        String name = "lake_partials_" + id + "_" + i;
        c.registerArrowStream(name, stream);
        union.append(i == 0 ? "" : " UNION ALL ").append("SELECT * FROM ").append(name);
      }
      s = c.createStatement();
      DuckDBResultSet rs =
          (DuckDBResultSet)
              s.executeQuery("WITH " + SplitPlan.PARTIALS + " AS (" + union + ") " + sql);
      ArrowReader reader = (ArrowReader) rs.arrowExportStream(allocator, COMBINE_BATCH_ROWS);
      DuckDBConnection connection = c;
      AutoCloseable owned =
          () -> {
            closeQuietly(connection);
            streams.forEach(DuckDbParquetCodec::closeQuietly);
          };
      return new StagedParquetReader(allocator, reader, rs, s, owned, null);
    } catch (SQLException | RuntimeException e) {
      closeQuietly(s);
      closeQuietly(c);
      streams.forEach(DuckDbParquetCodec::closeQuietly);
      // readers not yet handed to a stream are closed here
      partials.subList(streams.size(), partials.size()).forEach(DuckDbParquetCodec::closeQuietly);
      throw new LakeException(
          ErrorCode.QUERY_FAILED, "Combining the splits' results failed: " + e.getMessage(), e);
    }
  }

  /** A streaming reader of {@code file}, which is deleted when the reader closes if {@code own}. */
  private ArrowReader open(Path file, int batchRows, BufferAllocator allocator, boolean own) {
    DuckDBConnection c = null;
    Statement s = null;
    try {
      c = (DuckDBConnection) database.duplicate();
      s = c.createStatement();
      DuckDBResultSet rs =
          (DuckDBResultSet)
              s.executeQuery(
                  "SELECT * FROM read_parquet(" + SqlQuoting.literal(file.toString()) + ")");
      ArrowReader reader = (ArrowReader) rs.arrowExportStream(allocator, batchRows);
      return new StagedParquetReader(allocator, reader, rs, s, c, own ? file : null);
    } catch (SQLException | RuntimeException e) {
      closeQuietly(s);
      closeQuietly(c);
      throw rejected(e.getMessage());
    }
  }

  private static LakeException rejected(String why) {
    return new LakeException(ErrorCode.INTERNAL, "Result part rejected: " + why);
  }

  static void closeQuietly(AutoCloseable c) {
    if (c != null) {
      try {
        c.close();
      } catch (Exception e) {
        // releasing after a failure; the failure is what matters
      }
    }
  }

  static void deleteQuietly(Path file) {
    try {
      Files.deleteIfExists(file);
    } catch (IOException e) {
      // a leftover staged file is removed with the directory; never mask the outcome
    }
  }

  @Override
  public void close() {
    closeQuietly(database);
  }

  /** The staged copy would exceed the part's sealed size. */
  private static final class TooLarge extends IOException {
    private static final long serialVersionUID = 1L;
  }

  /** Counts what passes and stops once more than {@code limit} bytes were offered. */
  private static final class Bounded extends java.io.FilterOutputStream {
    private final long limit;
    private long written;

    Bounded(OutputStream out, long limit) {
      super(out);
      this.limit = limit;
    }

    @Override
    public void write(byte[] b, int off, int len) throws IOException {
      written += len;
      if (written > limit) {
        throw new TooLarge();
      }
      out.write(b, off, len);
    }

    @Override
    public void write(int b) throws IOException {
      write(new byte[] {(byte) b}, 0, 1);
    }
  }
}
