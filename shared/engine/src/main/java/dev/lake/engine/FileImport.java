package dev.lake.engine;

import static java.util.Objects.requireNonNull;

import dev.lake.core.ErrorCode;
import dev.lake.core.LakeException;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Properties;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.Stream;
import org.apache.arrow.c.ArrowArrayStream;
import org.apache.arrow.c.Data;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.ipc.ArrowFileReader;
import org.apache.arrow.vector.ipc.ArrowReader;
import org.apache.arrow.vector.ipc.ArrowStreamReader;
import org.apache.arrow.vector.types.pojo.Schema;
import org.duckdb.DuckDBConnection;
import org.duckdb.DuckDBPreparedStatement;
import org.duckdb.DuckDBResultSet;

/**
 * Reads Parquet, CSV, JSON or Arrow IPC files as one Arrow stream, for the trusted operator's
 * {@code bin/lake table import} (which streams it into Lance's writer: one batch in flight, no
 * staging copy). The files are read by a private in-memory DuckDB with its offline readers ({@code
 * read_parquet}, {@code read_csv}, {@code read_json}, files of one import unioned by column name;
 * Arrow IPC through Arrow Java) that never installs an extension.
 */
public final class FileImport {
  /** The input formats, recognized by file extension ({@code .gz}/{@code .zst} stripped). */
  public enum Format {
    PARQUET,
    CSV,
    JSON,
    ARROW;

    static Format of(Path file) {
      String name = file.getFileName().toString().toLowerCase(Locale.ROOT);
      for (String compressed : List.of(".gz", ".zst")) {
        if (name.endsWith(compressed)) {
          name = name.substring(0, name.length() - compressed.length());
        }
      }
      int dot = name.lastIndexOf('.');
      String ext = dot < 0 ? "" : name.substring(dot + 1);
      return switch (ext) {
        case "parquet", "pq" -> PARQUET;
        case "csv", "tsv" -> CSV;
        case "json", "jsonl", "ndjson" -> JSON;
        case "arrow", "arrows", "ipc", "feather" -> ARROW;
        default -> null;
      };
    }
  }

  /** The files to import: one format, every file of each directory given (sorted). */
  public record Source(Format format, List<Path> files, long bytes) {
    public Source {
      requireNonNull(format, "format is null");
      files = List.copyOf(files);
      if (files.isEmpty()) {
        throw new IllegalArgumentException("no files");
      }
    }

    /**
     * The files {@code inputs} name (a file, or a directory whose files of a known format are
     * taken, recursively); INVALID_ARGUMENT naming the input that is missing, of an unknown format,
     * of a second format, or a directory without such files.
     */
    public static Source resolve(List<Path> inputs) {
      if (inputs.isEmpty()) {
        throw invalid("Name at least one file or directory to import");
      }
      List<Path> files = new ArrayList<>();
      for (Path input : inputs) {
        if (Files.isDirectory(input)) {
          List<Path> found = filesUnder(input);
          if (found.isEmpty()) {
            throw invalid(
                "Directory "
                    + input
                    + " holds no .parquet, .csv, .tsv, .json, .jsonl, .ndjson or .arrow files");
          }
          files.addAll(found);
        } else if (Files.isRegularFile(input)) {
          if (Format.of(input) == null) {
            throw invalid(
                "Cannot tell the format of "
                    + input
                    + ": name it .parquet, .csv, .tsv, .json, .jsonl, .ndjson or .arrow");
          }
          files.add(input);
        } else {
          throw invalid("No such file or directory: " + input);
        }
      }
      Format format = Format.of(files.get(0));
      long bytes = 0;
      for (Path f : files) {
        if (Format.of(f) != format) {
          throw invalid(
              "One import reads one format: "
                  + files.get(0)
                  + " is "
                  + format
                  + ", "
                  + f
                  + " is "
                  + Format.of(f));
        }
        try {
          bytes += Files.size(f);
        } catch (IOException e) {
          throw new UncheckedIOException("cannot read " + f, e);
        }
      }
      return new Source(format, files, bytes);
    }

    private static List<Path> filesUnder(Path dir) {
      try (Stream<Path> walk = Files.walk(dir)) {
        return walk.filter(Files::isRegularFile)
            .filter(p -> !p.getFileName().toString().startsWith("."))
            .filter(p -> Format.of(p) != null)
            .sorted()
            .toList();
      } catch (IOException e) {
        throw new UncheckedIOException("cannot list " + dir, e);
      }
    }
  }

  /** Told of the import's progress from a background thread, about every 200 ms. */
  public interface Progress {
    /**
     * {@code fraction} of the input read (0 to 1; negative when unknown) and the rows read so far.
     */
    void update(double fraction, long rows);
  }

  private FileImport() {}

  /**
   * Starts reading {@code source}: the returned reading's {@link Reading#reader()} streams the
   * files' rows as Arrow batches (65,536 rows each) in {@code allocator}. INVALID_ARGUMENT with
   * DuckDB's message when the files cannot be read as their format.
   */
  public static Reading read(Source source, BufferAllocator allocator, Progress progress) {
    requireNonNull(source, "source is null");
    requireNonNull(allocator, "allocator is null");
    requireNonNull(progress, "progress is null");
    DuckDBConnection duck = null;
    PreparedStatement ps = null;
    List<AutoCloseable> streams = new ArrayList<>();
    try {
      Properties properties = new Properties();
      // stream the result batch by batch: a materialized result would hold the whole import
      properties.setProperty(org.duckdb.DuckDBDriver.JDBC_STREAM_RESULTS, "true");
      duck = (DuckDBConnection) new org.duckdb.DuckDBDriver().connect("jdbc:duckdb:", properties);
      try (Statement s = duck.createStatement()) {
        s.execute("SET autoinstall_known_extensions = false");
        s.execute("SET enable_progress_bar = true");
        s.execute("SET enable_progress_bar_print = false");
      }
      ps = duck.prepareStatement(select(source, duck, allocator, streams));
      ImportProgress poller = new ImportProgress((DuckDBPreparedStatement) ps, progress);
      try {
        ResultSet rs = ps.executeQuery();
        ArrowReader exported =
            (ArrowReader) ((DuckDBResultSet) rs).arrowExportStream(allocator, 65_536);
        return new Reading(duck, ps, poller, exported, allocator, streams);
      } catch (SQLException | IOException | RuntimeException e) {
        poller.close();
        throw e;
      }
    } catch (SQLException | IOException e) {
      DuckDbExecution.closeQuietly(ps);
      DuckDbExecution.closeQuietly(duck);
      streams.forEach(DuckDbExecution::closeQuietly);
      throw new LakeException(
          ErrorCode.INVALID_ARGUMENT, "Cannot read the input files: " + firstLine(e), e);
    }
  }

  /** An import's rows being read; close it after the reader was consumed (or abandoned). */
  public static final class Reading implements AutoCloseable {
    private final DuckDBConnection duck;
    private final PreparedStatement statement;
    private final ImportProgress progress;
    private final ArrowReader reader;
    private final AtomicLong bytes = new AtomicLong();
    private final Schema schema;
    private final List<String> columns;
    private final List<AutoCloseable> streams;

    private Reading(
        DuckDBConnection duck,
        PreparedStatement statement,
        ImportProgress progress,
        ArrowReader exported,
        BufferAllocator allocator,
        List<AutoCloseable> streams)
        throws IOException, SQLException {
      this.streams = streams;
      java.sql.ResultSetMetaData md = statement.getMetaData();
      List<String> described = new ArrayList<>();
      for (int i = 1; i <= md.getColumnCount(); i++) {
        described.add(md.getColumnName(i) + " " + md.getColumnTypeName(i));
      }
      this.columns = List.copyOf(described);
      this.duck = duck;
      this.statement = statement;
      this.progress = progress;
      this.schema = exported.getVectorSchemaRoot().getSchema();
      this.reader =
          new CountingReader(
              allocator, exported, bytes, Long.MAX_VALUE, n -> progress.rows(rowCount(exported)));
    }

    /** The rows as Arrow batches; whoever consumes it closes it (Lance's writer does). */
    public ArrowReader reader() {
      return reader;
    }

    public Schema schema() {
      return schema;
    }

    /** Each column as {@code name TYPE} in DuckDB's SQL type names ({@code id BIGINT}). */
    public List<String> columns() {
      return columns;
    }

    /** Rows read so far. */
    public long rows() {
      return progress.rows();
    }

    /** Arrow buffer bytes read so far. */
    public long bytes() {
      return bytes.get();
    }

    /** Every row was written: reports 100 %. */
    public void finished() {
      progress.finish();
    }

    @Override
    public void close() {
      progress.close();
      DuckDbExecution.closeQuietly(reader);
      DuckDbExecution.closeQuietly(statement);
      DuckDbExecution.closeQuietly(duck);
      streams.forEach(DuckDbExecution::closeQuietly); // Arrow IPC inputs DuckDB was reading
    }
  }

  /** The SELECT reading {@code source}; Arrow IPC files are registered as streams first. */
  private static String select(
      Source source, DuckDBConnection duck, BufferAllocator allocator, List<AutoCloseable> owned)
      throws SQLException, IOException {
    List<String> paths = source.files().stream().map(f -> literal(f.toString())).toList();
    String list = "[" + String.join(", ", paths) + "]";
    return switch (source.format()) {
      case PARQUET -> "SELECT * FROM read_parquet(" + list + ", union_by_name = true)";
      case CSV -> "SELECT * FROM read_csv(" + list + ", union_by_name = true)";
      case JSON -> "SELECT * FROM read_json(" + list + ", union_by_name = true)";
      case ARROW -> {
        List<String> parts = new ArrayList<>();
        for (int i = 0; i < source.files().size(); i++) {
          String name = "lake_import_" + i;
          ArrowReader reader = arrowReader(source.files().get(i), allocator);
          ArrowArrayStream stream = ArrowArrayStream.allocateNew(allocator);
          owned.add(stream);
          Data.exportArrayStream(allocator, reader, stream); // the stream owns the reader now
          duck.registerArrowStream(name, stream);
          parts.add("SELECT * FROM " + name);
        }
        yield String.join(" UNION ALL BY NAME ", parts);
      }
    };
  }

  /** An Arrow IPC file (magic {@code ARROW1}) or stream. */
  private static ArrowReader arrowReader(Path file, BufferAllocator allocator) throws IOException {
    byte[] magic = new byte[6];
    try (var in = Files.newInputStream(file)) {
      int n = in.readNBytes(magic, 0, 6);
      boolean isFile =
          n == 6 && new String(magic, java.nio.charset.StandardCharsets.US_ASCII).equals("ARROW1");
      if (isFile) {
        return new ArrowFileReader(java.nio.channels.FileChannel.open(file), allocator);
      }
    }
    return new ArrowStreamReader(Files.newInputStream(file), allocator);
  }

  private static int rowCount(ArrowReader reader) {
    try {
      return reader.getVectorSchemaRoot().getRowCount();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  static String literal(String s) {
    return "'" + s.replace("'", "''") + "'";
  }

  private static String firstLine(Exception e) {
    String m = e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage();
    return m.lines().findFirst().orElse(m);
  }

  private static LakeException invalid(String message) {
    return new LakeException(ErrorCode.INVALID_ARGUMENT, message);
  }
}
