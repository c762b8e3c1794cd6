package dev.lake.iceberg.demo;

import java.util.ArrayList;
import java.util.List;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.Schema;
import org.apache.iceberg.Table;
import org.apache.iceberg.data.GenericRecord;
import org.apache.iceberg.data.Record;

/** Test shorthand over {@link DemoTables#append} and {@link TableFiles}. */
final class DemoTablesSupport {
  private DemoTablesSupport() {}

  static DataFile append(Table t, List<Record> rows) {
    return DemoTables.append(t, rows);
  }

  /**
   * Commits an equality delete (unpartitioned) of the rows whose one-column {@code key} is in ids.
   */
  static void deleteWhereKeyIn(Table t, Schema key, long... ids) {
    List<Record> keys = new ArrayList<>();
    for (long id : ids) {
      Record k = GenericRecord.create(key);
      k.set(0, id);
      keys.add(k);
    }
    t.newRowDelta().addDeletes(TableFiles.writeEqualityDeletes(t, key, null, keys)).commit();
  }
}
