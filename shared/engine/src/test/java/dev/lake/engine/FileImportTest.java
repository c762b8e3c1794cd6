package dev.lake.engine;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.lake.core.LakeException;
import dev.lake.lance.LanceDatasets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.VarCharVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.ipc.ArrowFileWriter;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.Schema;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Parquet, CSV, JSON and Arrow IPC files become Lance versions; see {@link FileImport}. */
class FileImportTest {
  @TempDir Path dir;
  RootAllocator allocator;

  @BeforeEach
  void setUp() {
    allocator = new RootAllocator();
  }

  @AfterEach
  void tearDown() {
    allocator.close();
  }

  /** Writes {@code rows} rows (id, name) with DuckDB's own writer in {@code format}. */
  private Path write(String file, String format, int from, int rows) throws Exception {
    Path out = dir.resolve(file);
    Files.createDirectories(out.getParent());
    try (Connection c = new org.duckdb.DuckDBDriver().connect("jdbc:duckdb:", null);
        Statement s = c.createStatement()) {
      s.execute(
          "COPY (SELECT x AS id, 'n' || x AS name FROM range("
              + from
              + ", "
              + (from + rows)
              + ") t(x)) TO "
              + FileImport.literal(out.toString())
              + " (FORMAT "
              + format
              + ")");
    }
    return out;
  }

  /** Imports {@code inputs} into the Lance dataset at {@code location}; returns rows read. */
  private long importInto(String location, boolean append, List<Double> fractions, Path... inputs) {
    try (FileImport.Reading reading =
        FileImport.read(
            FileImport.Source.resolve(List.of(inputs)), allocator, (f, rows) -> fractions.add(f))) {
      LanceDatasets.write(location, reading.reader(), allocator, append);
      reading.finished();
      return reading.rows();
    }
  }

  private long count(String location) {
    try (org.lance.Dataset ds =
        org.lance.Dataset.open().allocator(allocator).uri(location).build()) {
      return ds.countRows();
    }
  }

  @Test
  void parquetCsvJsonAndArrow_areReadAsOneStream_intoLance() throws Exception {
    // GIVEN 1,000 rows as Parquet, a directory of two CSV files, JSON and an Arrow IPC file
    Path parquet = write("in/a.parquet", "parquet", 0, 1000);
    write("csv/part1.csv", "csv", 0, 600);
    write("csv/part2.csv", "csv", 600, 400);
    Path json = write("in/b.json", "json", 0, 1000);
    Path arrow = arrowFile(3);
    String location = dir.resolve("t.lance").toString();
    List<Double> fractions = new ArrayList<>();

    // WHEN the Parquet file is written, then the CSV directory, the JSON and the Arrow file
    // appended
    long first = importInto(location, false, fractions, parquet);
    long second = importInto(location, true, new ArrayList<>(), dir.resolve("csv"));
    long third = importInto(location, true, new ArrayList<>(), json);
    long fourth = importInto(location, true, new ArrayList<>(), arrow);

    // THEN every row arrived, one version per import, and progress ended at 100 %
    assertThat(List.of(first, second, third, fourth)).containsExactly(1000L, 1000L, 1000L, 3L);
    assertThat(LanceDatasets.latestVersion(location, allocator)).isEqualTo(4L);
    assertThat(count(location)).isEqualTo(3003);
    assertThat(fractions).last().isEqualTo(1.0);
    assertThat(allocator.getAllocatedMemory()).isZero();
  }

  @Test
  void reading_reportsSchemaAndBytes() throws Exception {
    // GIVEN a Parquet file
    Path parquet = write("in/a.parquet", "parquet", 0, 100);

    // WHEN it is read to its end
    try (FileImport.Reading reading =
        FileImport.read(FileImport.Source.resolve(List.of(parquet)), allocator, (f, r) -> {})) {
      try (var reader = reading.reader()) {
        while (reader.loadNextBatch()) {
          // consume
        }
      }
      // THEN the schema, rows and Arrow bytes are known
      assertThat(reading.schema().getFields())
          .extracting(Field::getName)
          .containsExactly("id", "name");
      assertThat(reading.rows()).isEqualTo(100);
      assertThat(reading.bytes()).isPositive();
    }
    assertThat(allocator.getAllocatedMemory()).isZero();
  }

  private Path arrowFile(int rows) throws Exception {
    Schema schema =
        new Schema(
            List.of(
                Field.nullable("id", new ArrowType.Int(64, true)),
                Field.nullable("name", ArrowType.Utf8.INSTANCE)));
    Path file = dir.resolve("t.arrow");
    try (VectorSchemaRoot root = VectorSchemaRoot.create(schema, allocator);
        var out =
            java.nio.channels.FileChannel.open(
                file,
                java.nio.file.StandardOpenOption.CREATE,
                java.nio.file.StandardOpenOption.WRITE);
        ArrowFileWriter writer = new ArrowFileWriter(root, null, out)) {
      BigIntVector id = (BigIntVector) root.getVector("id");
      VarCharVector name = (VarCharVector) root.getVector("name");
      for (int i = 0; i < rows; i++) {
        id.setSafe(i, i);
        name.setSafe(i, ("n" + i).getBytes(java.nio.charset.StandardCharsets.UTF_8));
      }
      root.setRowCount(rows);
      writer.start();
      writer.writeBatch();
      writer.end();
    }
    return file;
  }

  @Test
  void badInputs_areRefusedByName_andReleaseEverything() throws Exception {
    // GIVEN inputs that are missing, of unknown or mixed formats, or broken
    Path parquet = write("in/a.parquet", "parquet", 0, 10);
    Path csv = write("in/b.csv", "csv", 0, 10);
    Path text = Files.writeString(dir.resolve("notes.txt"), "hello");
    Path broken = Files.writeString(dir.resolve("broken.parquet"), "not parquet");
    Files.createDirectories(dir.resolve("empty"));

    // WHEN they are resolved or read THEN each is refused naming the problem
    assertThatThrownBy(() -> FileImport.Source.resolve(List.of(dir.resolve("nope.csv"))))
        .isInstanceOf(LakeException.class)
        .hasMessage("No such file or directory: " + dir.resolve("nope.csv"));
    assertThatThrownBy(() -> FileImport.Source.resolve(List.of(text)))
        .hasMessageStartingWith("Cannot tell the format of " + text);
    assertThatThrownBy(() -> FileImport.Source.resolve(List.of(dir.resolve("empty"))))
        .hasMessageStartingWith("Directory " + dir.resolve("empty") + " holds no .parquet");
    assertThatThrownBy(() -> FileImport.Source.resolve(List.of(parquet, csv)))
        .hasMessage("One import reads one format: " + parquet + " is PARQUET, " + csv + " is CSV");
    assertThatThrownBy(
            () ->
                FileImport.read(
                    FileImport.Source.resolve(List.of(broken)), allocator, (f, r) -> {}))
        .isInstanceOf(LakeException.class)
        .hasMessageStartingWith("Cannot read the input files:");
    // AND nothing is left allocated
    assertThat(allocator.getAllocatedMemory()).isZero();
  }
}
