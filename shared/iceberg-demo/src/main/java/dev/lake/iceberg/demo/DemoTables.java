package dev.lake.iceberg.demo;

import java.util.ArrayList;
import java.util.List;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Schema;
import org.apache.iceberg.Table;
import org.apache.iceberg.catalog.Catalog;
import org.apache.iceberg.catalog.Namespace;
import org.apache.iceberg.catalog.SupportsNamespaces;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.data.GenericRecord;
import org.apache.iceberg.data.Record;
import org.apache.iceberg.types.Types;

/**
 * The demo data: {@code demo.region} (5 rows) and {@code demo.nation} (TPC-H's 25 nations written
 * in two snapshots: the first 10 nations, then the other 15), format v2.
 */
public final class DemoTables {
  public static final Schema NATION =
      new Schema(
          Types.NestedField.required(1, "n_nationkey", Types.IntegerType.get()),
          Types.NestedField.required(2, "n_name", Types.StringType.get()),
          Types.NestedField.required(3, "n_regionkey", Types.IntegerType.get()),
          Types.NestedField.optional(4, "n_comment", Types.StringType.get()));
  public static final Schema REGION =
      new Schema(
          Types.NestedField.required(1, "r_regionkey", Types.IntegerType.get()),
          Types.NestedField.required(2, "r_name", Types.StringType.get()));

  private static final String[][] NATIONS = {
    {"ALGERIA", "0"},
    {"ARGENTINA", "1"},
    {"BRAZIL", "1"},
    {"CANADA", "1"},
    {"EGYPT", "4"},
    {"ETHIOPIA", "0"},
    {"FRANCE", "3"},
    {"GERMANY", "3"},
    {"INDIA", "2"},
    {"INDONESIA", "2"},
    {"IRAN", "4"},
    {"IRAQ", "4"},
    {"JAPAN", "2"},
    {"JORDAN", "4"},
    {"KENYA", "0"},
    {"MOROCCO", "0"},
    {"MOZAMBIQUE", "0"},
    {"PERU", "1"},
    {"CHINA", "2"},
    {"ROMANIA", "3"},
    {"SAUDI ARABIA", "4"},
    {"VIETNAM", "2"},
    {"RUSSIA", "3"},
    {"UNITED KINGDOM", "3"},
    {"UNITED STATES", "1"}
  };
  private static final String[] REGIONS = {"AFRICA", "AMERICA", "ASIA", "EUROPE", "MIDDLE EAST"};

  private DemoTables() {}

  /** Creates namespace {@code demo} with both tables; returns the nation table. */
  public static Table create(Catalog catalog) {
    Namespace demo = Namespace.of("demo");
    if (catalog instanceof SupportsNamespaces ns && !ns.namespaceExists(demo)) {
      ns.createNamespace(demo);
    }
    Table region =
        catalog.createTable(
            TableIdentifier.of(demo, "region"),
            REGION,
            PartitionSpec.unpartitioned(),
            java.util.Map.of("format-version", "2"));
    List<Record> regions = new ArrayList<>();
    for (int i = 0; i < REGIONS.length; i++) {
      Record r = GenericRecord.create(REGION);
      r.set(0, i);
      r.set(1, REGIONS[i]);
      regions.add(r);
    }
    append(region, regions);

    Table nation =
        catalog.createTable(
            TableIdentifier.of(demo, "nation"),
            NATION,
            PartitionSpec.unpartitioned(),
            java.util.Map.of("format-version", "2"));
    append(nation, nations(0, 10));
    append(nation, nations(10, NATIONS.length));
    return nation;
  }

  /** Nation rows {@code [from, to)}. */
  public static List<Record> nations(int from, int to) {
    List<Record> out = new ArrayList<>();
    for (int i = from; i < to; i++) {
      Record r = GenericRecord.create(NATION);
      r.set(0, i);
      r.set(1, NATIONS[i][0]);
      r.set(2, Integer.parseInt(NATIONS[i][1]));
      r.set(3, "nation " + i);
      out.add(r);
    }
    return out;
  }

  /** Appends {@code rows} as one new data file in one new snapshot. */
  public static DataFile append(Table table, List<Record> rows) {
    DataFile file = TableFiles.writeData(table, null, rows);
    table.newAppend().appendFile(file).commit();
    return file;
  }
}
