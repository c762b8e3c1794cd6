package dev.lake.iceberg;

import static org.apache.parquet.schema.PrimitiveType.PrimitiveTypeName.BINARY;
import static org.apache.parquet.schema.PrimitiveType.PrimitiveTypeName.INT32;
import static org.apache.parquet.schema.PrimitiveType.PrimitiveTypeName.INT64;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;
import org.apache.iceberg.Schema;
import org.apache.iceberg.types.Types;
import org.apache.parquet.schema.LogicalTypeAnnotation;
import org.apache.parquet.schema.MessageType;
import org.junit.jupiter.api.Test;

class ParquetScanSqlTest {
  static final Schema PINNED =
      new Schema(
          Types.NestedField.optional(1, "id", Types.LongType.get()),
          Types.NestedField.optional(2, "price", Types.DecimalType.of(15, 2)),
          Types.NestedField.optional(3, "name", Types.StringType.get()));

  /** A Parquet file schema like DuckDB's and Iceberg's writers produce, with field ids. */
  static FileColumns file(String thirdName, int thirdId, boolean narrowId) {
    MessageType type =
        org.apache.parquet.schema.Types.buildMessage()
            .optional(narrowId ? INT32 : INT64)
            .id(1)
            .named("id")
            .optional(INT64)
            .as(LogicalTypeAnnotation.decimalType(2, 15))
            .id(2)
            .named("price")
            .optional(BINARY)
            .as(LogicalTypeAnnotation.stringType())
            .id(thirdId)
            .named(thirdName)
            .named("table");
    return FileColumns.of(type);
  }

  static final FileColumns CURRENT = file("name", 3, false);

  static ParquetScanSql.DataTask plain(String path, FileColumns columns) {
    return new ParquetScanSql.DataTask(
        path, "file:" + path, Map.of(), List.of(), List.of(), columns);
  }

  static String render(ParquetScanSql.DataTask... tasks) {
    return ParquetScanSql.render(PINNED.columns(), PINNED, List.of(tasks)).orElseThrow();
  }

  @Test
  void render_readsFilesByName_whenTheirColumnsAreThePinnedOnes() {
    // GIVEN two files written at the pinned schema (same ids, names and types)
    // WHEN the scan is rendered
    String sql = render(plain("/c/a.parquet", CURRENT), plain("/c/b.parquet", CURRENT));

    // THEN one read_parquet reads both by name, without the field-id schema map
    assertThat(sql)
        .isEqualTo(
            "SELECT d.\"id\" AS \"id\", d.\"price\" AS \"price\", d.\"name\" AS \"name\""
                + " FROM read_parquet(['/c/a.parquet', '/c/b.parquet']) d");
  }

  @Test
  void render_readsByFieldId_whenAFileWasWrittenBeforeARenameOrItsColumnsAreUnknown() {
    // GIVEN a file written before column 3 was renamed, and a file of unknown columns
    FileColumns beforeRename = file("label", 3, false);

    // WHEN each is rendered next to a file at the pinned schema
    String renamed = render(plain("/c/a.parquet", CURRENT), plain("/c/old.parquet", beforeRename));
    String unknown = render(plain("/c/x.parquet", FileColumns.NONE));

    // THEN the older file is read through the field-id map, apart from the current one
    assertThat(renamed)
        .contains("FROM read_parquet(['/c/a.parquet']) d")
        .contains("FROM read_parquet(['/c/old.parquet'], schema=MAP {1: {name: 'c1'")
        .contains(" UNION ALL ");
    assertThat(unknown).contains("schema=MAP {").contains("d.c3 AS \"name\"");
  }

  @Test
  void readsByName_refusesPromotedTypesMissingColumnsOtherIdsCaseTwinsAndInexactTypes() {
    FileColumns promoted = file("name", 3, true); // id written as int, pinned as long
    FileColumns otherId = file("name", 9, false);
    FileColumns caseTwin =
        FileColumns.of(
            org.apache.parquet.schema.Types.buildMessage()
                .optional(INT64)
                .id(1)
                .named("id")
                .optional(INT64)
                .id(7)
                .named("ID")
                .named("table"));
    FileColumns unsigned =
        FileColumns.of(
            org.apache.parquet.schema.Types.buildMessage()
                .optional(INT64)
                .as(LogicalTypeAnnotation.intType(64, false))
                .id(1)
                .named("id")
                .named("table"));
    List<Types.NestedField> idOnly = List.of(PINNED.findField(1));

    assertThat(ParquetScanSql.readsByName(PINNED.columns(), Map.of(), CURRENT)).isTrue();
    assertThat(ParquetScanSql.readsByName(PINNED.columns(), Map.of(), promoted)).isFalse();
    assertThat(ParquetScanSql.readsByName(PINNED.columns(), Map.of(), otherId)).isFalse();
    assertThat(ParquetScanSql.readsByName(idOnly, Map.of(), caseTwin)).isFalse();
    assertThat(ParquetScanSql.readsByName(idOnly, Map.of(), unsigned)).isFalse();
    assertThat(ParquetScanSql.readsByName(PINNED.columns(), Map.of(), FileColumns.NONE)).isFalse();
    // a partition constant is never read from the file, so the file need not hold it
    assertThat(ParquetScanSql.readsByName(PINNED.columns(), Map.of(3, "x"), otherId)).isTrue();
  }
}
