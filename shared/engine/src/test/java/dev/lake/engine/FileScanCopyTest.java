package dev.lake.engine;

import static org.assertj.core.api.Assertions.assertThat;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.Statement;
import java.util.List;
import org.apache.arrow.vector.types.DateUnit;
import org.apache.arrow.vector.types.FloatingPointPrecision;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.FieldType;
import org.apache.arrow.vector.types.pojo.Schema;
import org.junit.jupiter.api.Test;

class FileScanCopyTest {
  private static final Schema SCHEMA =
      new Schema(
          List.of(
              Field.nullable("id", new ArrowType.Int(64, true)),
              Field.nullable("price", new ArrowType.Decimal(15, 2, 128)),
              Field.nullable("day", new ArrowType.Date(DateUnit.DAY)),
              Field.nullable("x", new ArrowType.FloatingPoint(FloatingPointPrecision.DOUBLE)),
              Field.nullable("name", ArrowType.Utf8.INSTANCE),
              new Field(
                  "tags",
                  FieldType.nullable(ArrowType.List.INSTANCE),
                  List.of(Field.nullable("item", ArrowType.Utf8.INSTANCE)))));

  @Test
  void measure_countsFixedWidthsPerRow_andTheBytesOfStrings() throws Exception {
    // GIVEN three rows of a projection with fixed-width columns and a string column
    FileScanCopy.Measure m =
        FileScanCopy.measure(SCHEMA, List.of("id", "price", "day", "name")).orElseThrow();
    String rows =
        "SELECT * FROM (VALUES (1::BIGINT, 1.5::DECIMAL(15,2), DATE '2020-01-01', 'ab'),"
            + " (2, 2.5, DATE '2020-01-02', 'cde'), (3, NULL, NULL, NULL))"
            + " AS t(id, price, day, name)";
    try (Connection c = DriverManager.getConnection("jdbc:duckdb:");
        Statement st = c.createStatement()) {
      // WHEN measured THEN 3 rows x (8 + 16 + 4 + 4 offset bytes) plus 5 string bytes
      assertThat(m.bytes(st, rows)).isEqualTo(3 * (8 + 16 + 4 + 4) + 5);
    }
  }

  @Test
  void measure_isEmpty_forColumnsOfNestedTypes_orUnknownNames() {
    assertThat(FileScanCopy.measure(SCHEMA, List.of("id", "tags"))).isEmpty();
    assertThat(FileScanCopy.measure(SCHEMA, List.of("nosuch"))).isEmpty();
    assertThat(FileScanCopy.measure(SCHEMA, List.of("x"))).isPresent();
  }
}
