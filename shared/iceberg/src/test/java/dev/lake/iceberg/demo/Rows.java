package dev.lake.iceberg.demo;

import dev.lake.core.ScanRequest;
import dev.lake.core.Snapshot;
import dev.lake.core.TableReader;
import dev.lake.core.TableRef;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.DateDayVector;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.ipc.ArrowReader;
import org.apache.arrow.vector.util.Text;
import org.apache.iceberg.Table;
import org.apache.iceberg.data.IcebergGenerics;
import org.apache.iceberg.data.Record;
import org.apache.iceberg.expressions.Expression;
import org.apache.iceberg.expressions.Expressions;
import org.apache.iceberg.io.CloseableIterable;
import org.apache.iceberg.util.SnapshotUtil;

/**
 * Rows as comparable lists: what lake's reader streams, and what Iceberg's generic reader reads.
 */
final class Rows {
  private Rows() {}

  static List<List<Object>> scan(
      TableReader reader,
      TableRef ref,
      Snapshot snapshot,
      ScanRequest request,
      BufferAllocator allocator) {
    List<List<Object>> out = new ArrayList<>();
    List<ArrowReader> streams = reader.scan(ref, snapshot, request, allocator);
    try {
      for (ArrowReader r : streams) {
        drain(r, out);
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    } finally {
      for (ArrowReader r : streams) {
        try {
          r.close();
        } catch (IOException e) {
          throw new UncheckedIOException(e);
        }
      }
    }
    return sorted(out);
  }

  /** Every row of {@code reader}, sorted (the reader stays open). */
  static List<List<Object>> read(ArrowReader reader) throws IOException {
    List<List<Object>> out = new ArrayList<>();
    drain(reader, out);
    return sorted(out);
  }

  private static void drain(ArrowReader r, List<List<Object>> out) throws IOException {
    while (r.loadNextBatch()) {
      VectorSchemaRoot root = r.getVectorSchemaRoot();
      for (int i = 0; i < root.getRowCount(); i++) {
        List<Object> row = new ArrayList<>();
        for (FieldVector v : root.getFieldVectors()) {
          Object o = v.getObject(i);
          if (v instanceof DateDayVector && o != null) {
            o = LocalDate.ofEpochDay((Integer) o);
          }
          row.add(normalize(o));
        }
        out.add(row);
      }
    }
  }

  static List<List<Object>> generics(Table table, long snapshotId, String... columns) {
    return generics(table, snapshotId, Expressions.alwaysTrue(), columns);
  }

  /** Iceberg's own generic reader at {@code snapshotId}, residual-filtered exactly. */
  static List<List<Object>> generics(
      Table table, long snapshotId, Expression filter, String... columns) {
    IcebergGenerics.ScanBuilder b =
        IcebergGenerics.read(table).useSnapshot(snapshotId).where(filter);
    if (columns.length > 0) {
      b = b.select(columns);
    }
    // Generic records may carry extra columns (e.g. _pos for position deletes): compare only the
    // snapshot's columns.
    int width = SnapshotUtil.schemaFor(table, snapshotId).columns().size();
    List<List<Object>> out = new ArrayList<>();
    try (CloseableIterable<Record> records = b.build()) {
      for (Record r : records) {
        List<Object> row = new ArrayList<>();
        int n = columns.length > 0 ? columns.length : width;
        for (int i = 0; i < n; i++) {
          row.add(normalize(r.get(i)));
        }
        out.add(row);
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return sorted(out);
  }

  private static Object normalize(Object o) {
    if (o instanceof Text || o instanceof CharSequence) {
      return o.toString();
    }
    if (o instanceof byte[] b) {
      return Arrays.toString(b);
    }
    if (o instanceof ByteBuffer bb) {
      byte[] b = new byte[bb.remaining()];
      bb.duplicate().get(b);
      return Arrays.toString(b);
    }
    return o;
  }

  private static List<List<Object>> sorted(List<List<Object>> rows) {
    rows.sort(Comparator.comparing(Object::toString));
    return rows;
  }
}
