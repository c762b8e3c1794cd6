package dev.lake.lance.demo;

import io.trino.tpch.TpchColumn;
import io.trino.tpch.TpchEntity;
import io.trino.tpch.TpchTable;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.DateDayVector;
import org.apache.arrow.vector.DecimalVector;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.IntVector;
import org.apache.arrow.vector.VarCharVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.ipc.ArrowReader;
import org.apache.arrow.vector.types.DateUnit;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.FieldType;
import org.apache.arrow.vector.types.pojo.Schema;

/**
 * Streams one generated TPC-H table as Arrow batches with the spec's types: BIGINT keys, INTEGER
 * counts, DECIMAL(15,2) money and quantities, DATE dates, VARCHAR strings.
 */
final class TpchReader<E extends TpchEntity> extends ArrowReader {
  private static final int BATCH = 8192;

  private final TpchTable<E> table;
  private final Iterator<E> rows;
  private final Schema schema;

  TpchReader(BufferAllocator allocator, TpchTable<E> table, double scaleFactor) {
    super(allocator);
    this.table = table;
    this.rows = table.createGenerator(scaleFactor, 1, 1).iterator();
    this.schema = schema(table);
  }

  static Schema schema(TpchTable<?> table) {
    List<Field> fields = new ArrayList<>();
    for (TpchColumn<?> c : table.getColumns()) {
      fields.add(new Field(c.getColumnName(), FieldType.notNullable(type(c)), null));
    }
    return new Schema(fields);
  }

  private static ArrowType type(TpchColumn<?> c) {
    switch (c.getType().getBase()) {
      case IDENTIFIER:
        return new ArrowType.Int(64, true);
      case INTEGER:
        return new ArrowType.Int(32, true);
      case DOUBLE:
        return new ArrowType.Decimal(15, 2, 128);
      case DATE:
        return new ArrowType.Date(DateUnit.DAY);
      default:
        return ArrowType.Utf8.INSTANCE;
    }
  }

  @Override
  public boolean loadNextBatch() throws java.io.IOException {
    VectorSchemaRoot root = getVectorSchemaRoot();
    root.allocateNew();
    List<TpchColumn<E>> columns = table.getColumns();
    int n = 0;
    while (n < BATCH && rows.hasNext()) {
      E row = rows.next();
      for (int i = 0; i < columns.size(); i++) {
        set(root.getVector(i), columns.get(i), row, n);
      }
      n++;
    }
    root.setRowCount(n);
    return n > 0;
  }

  private static <E extends TpchEntity> void set(FieldVector v, TpchColumn<E> c, E row, int i) {
    switch (c.getType().getBase()) {
      case IDENTIFIER:
        ((BigIntVector) v).setSafe(i, c.getIdentifier(row));
        break;
      case INTEGER:
        ((IntVector) v).setSafe(i, c.getInteger(row));
        break;
      case DOUBLE:
        ((DecimalVector) v).setSafe(i, Math.round(c.getDouble(row) * 100));
        break;
      case DATE:
        ((DateDayVector) v).setSafe(i, c.getDate(row));
        break;
      default:
        ((VarCharVector) v).setSafe(i, c.getString(row).getBytes(StandardCharsets.UTF_8));
    }
  }

  @Override
  public long bytesRead() {
    return 0;
  }

  @Override
  protected void closeReadSource() {}

  @Override
  protected Schema readSchema() {
    return schema;
  }
}
