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
import org.junit.jupiter.api.Test;

class ParquetScanSqlTest {
  static final Schema PINNED =
      new Schema(
          Types.NestedField.optional(1, "id", Types.LongType.get()),
          Types.NestedField.optional(2, "price", Types.DecimalType.of(15, 2)),
          Types.NestedField.optional(3, "name", Types.StringType.get()));

  /**
   * A Parquet file schema like DuckDB's and Iceberg's writers produce, with field ids: columns
   * {@code "name:id:kind"} in file order, kind one of long, int, ulong, decimal, string.
   */
  static FileColumns columns(String... specs) {
    org.apache.parquet.schema.Types.MessageTypeBuilder b =
        org.apache.parquet.schema.Types.buildMessage();
    for (String spec : specs) {
      String[] p = spec.split(":");
      int id = Integer.parseInt(p[1]);
      switch (p[2]) {
        case "long" -> b.optional(INT64).id(id).named(p[0]);
        case "int" -> b.optional(INT32).id(id).named(p[0]);
        case "ulong" ->
            b.optional(INT64).as(LogicalTypeAnnotation.intType(64, false)).id(id).named(p[0]);
        case "decimal" ->
            b.optional(INT64).as(LogicalTypeAnnotation.decimalType(2, 15)).id(id).named(p[0]);
        default -> b.optional(BINARY).as(LogicalTypeAnnotation.stringType()).id(id).named(p[0]);
      }
    }
    return FileColumns.of(b.named("table"));
  }

  static final FileColumns CURRENT = columns("id:1:long", "price:2:decimal", "name:3:string");

  static ParquetScanSql.DataTask plain(String path, FileColumns columns) {
    return new ParquetScanSql.DataTask(
        path, "file:" + path, 100, Map.of(), List.of(), List.of(), columns);
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
                + " FROM read_parquet(['/c/a.parquet', '/c/b.parquet'], explicit_cardinality=200) d");
  }

  @Test
  void render_readsByFieldId_whenAFileWasWrittenBeforeARenameOrItsColumnsAreUnknown() {
    // GIVEN a file written before column 3 was renamed, and a file of unknown columns
    FileColumns beforeRename = columns("id:1:long", "price:2:decimal", "label:3:string");

    // WHEN each is rendered next to a file at the pinned schema
    String renamed = render(plain("/c/a.parquet", CURRENT), plain("/c/old.parquet", beforeRename));
    String unknown = render(plain("/c/x.parquet", FileColumns.NONE));

    // THEN the older file is read through the field-id map, apart from the current one
    assertThat(renamed)
        .contains("FROM read_parquet(['/c/a.parquet'], explicit_cardinality=100) d")
        .contains(
            "FROM read_parquet(['/c/old.parquet'], explicit_cardinality=100,"
                + " schema=MAP {1: {name: 'c1'")
        .contains(" UNION ALL ");
    assertThat(unknown).contains("schema=MAP {").contains("d.c3 AS \"name\"");
  }

  @Test
  void render_readsByFieldId_whenAColumnWasAddedAfterTheFileOrTheFileHasDeletes() {
    // GIVEN a file written before column 3 was added, and a current file with a position delete
    FileColumns beforeAdd = columns("id:1:long", "price:2:decimal");
    ParquetScanSql.DataTask deleted =
        new ParquetScanSql.DataTask(
            "/c/d.parquet",
            "file:/c/d.parquet",
            100,
            Map.of(),
            List.of("/c/pos.parquet"),
            List.of(),
            CURRENT);

    // WHEN each is rendered
    String added = render(plain("/c/old.parquet", beforeAdd));
    String withDeletes = render(deleted);

    // THEN both read through the field-id map (the missing column reads as NULL by id)
    assertThat(added).contains("schema=MAP {").contains("d.c3 AS \"name\"");
    assertThat(withDeletes)
        .contains("FROM read_parquet(['/c/d.parquet'], explicit_cardinality=100, schema=MAP {");
  }

  @Test
  void render_readsFilesWithColumnsInAnotherOrderSeparately() {
    // GIVEN a file at the pinned schema whose columns are stored in another order
    FileColumns reordered = columns("name:3:string", "id:1:long", "price:2:decimal");

    // WHEN it is rendered next to a file in the pinned order
    String sql = render(plain("/c/a.parquet", CURRENT), plain("/c/r.parquet", reordered));

    // THEN each is read by name in its own read_parquet (never matched by position)
    assertThat(sql)
        .contains("FROM read_parquet(['/c/a.parquet'], explicit_cardinality=100) d")
        .contains("FROM read_parquet(['/c/r.parquet'], explicit_cardinality=100) d")
        .contains(" UNION ALL ")
        .doesNotContain("schema=");
  }

  @Test
  void readsByName_refusesPromotedTypesMissingColumnsOtherIdsCaseTwinsAndInexactTypes() {
    FileColumns promoted = columns("id:1:int", "price:2:decimal", "name:3:string");
    FileColumns otherId = columns("id:1:long", "price:2:decimal", "name:9:string");
    FileColumns caseTwin = columns("id:1:long", "ID:7:long");
    FileColumns unsigned = columns("id:1:ulong");
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
