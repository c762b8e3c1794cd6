package dev.lake.iceberg.demo;

import java.util.List;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.Table;
import org.apache.iceberg.data.Record;

/** Test shorthand over {@link DemoTables#append}. */
final class DemoTablesSupport {
  private DemoTablesSupport() {}

  static DataFile append(Table t, List<Record> rows) {
    return DemoTables.append(t, rows);
  }
}
