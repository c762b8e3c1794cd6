package dev.lake.core.testing;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.VarCharVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.ipc.ArrowReader;
import org.apache.arrow.vector.ipc.ArrowStreamReader;
import org.apache.arrow.vector.ipc.ArrowStreamWriter;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.Schema;

/** Small Arrow fixtures for tests: a two-column schema and streams of numbered rows. */
public final class TestArrow {
  public static final Schema SCHEMA =
      new Schema(
          List.of(
              Field.nullable("id", new ArrowType.Int(64, true)),
              Field.nullable("name", ArrowType.Utf8.INSTANCE)));

  private TestArrow() {}

  /** IPC stream bytes of {@code batches} batches of {@code rows} rows, ids 0, 1, 2, ... */
  public static byte[] ipc(BufferAllocator allocator, int batches, int rows) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    try (VectorSchemaRoot root = VectorSchemaRoot.create(SCHEMA, allocator);
        ArrowStreamWriter writer = new ArrowStreamWriter(root, null, out)) {
      writer.start();
      long id = 0;
      for (int b = 0; b < batches; b++) {
        BigIntVector ids = (BigIntVector) root.getVector("id");
        VarCharVector names = (VarCharVector) root.getVector("name");
        ids.allocateNew(rows);
        names.allocateNew(rows);
        for (int r = 0; r < rows; r++, id++) {
          ids.set(r, id);
          names.setSafe(r, ("row-" + id).getBytes(StandardCharsets.UTF_8));
        }
        root.setRowCount(rows);
        writer.writeBatch();
      }
      writer.end();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return out.toByteArray();
  }

  /** A reader over {@link #ipc}. */
  public static ArrowReader reader(BufferAllocator allocator, int batches, int rows) {
    return new ArrowStreamReader(
        new ByteArrayInputStream(ipc(allocator, batches, rows)), allocator);
  }

  /** Every id in the stream, in order; closes the reader. */
  public static List<Long> ids(ArrowReader reader) {
    List<Long> out = new ArrayList<>();
    try (reader) {
      while (reader.loadNextBatch()) {
        BigIntVector v = (BigIntVector) reader.getVectorSchemaRoot().getVector("id");
        for (int i = 0; i < v.getValueCount(); i++) {
          out.add(v.get(i));
        }
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return out;
  }

  /** A stream of ids 0..n-1. */
  public static List<Long> range(long n) {
    List<Long> out = new ArrayList<>();
    for (long i = 0; i < n; i++) {
      out.add(i);
    }
    return out;
  }
}
