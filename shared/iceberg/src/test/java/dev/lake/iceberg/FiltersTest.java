package dev.lake.iceberg;

import static org.assertj.core.api.Assertions.assertThat;

import dev.lake.core.ScanRequest;
import java.util.List;
import java.util.Optional;
import org.apache.iceberg.Schema;
import org.apache.iceberg.expressions.Expression;
import org.apache.iceberg.types.Types;
import org.junit.jupiter.api.Test;

class FiltersTest {
  static final Schema SCHEMA =
      new Schema(
          Types.NestedField.required(1, "id", Types.LongType.get()),
          Types.NestedField.optional(2, "Name", Types.StringType.get()),
          Types.NestedField.optional(3, "price", Types.DecimalType.of(15, 2)),
          Types.NestedField.optional(4, "d", Types.DateType.get()),
          Types.NestedField.optional(5, "x", Types.DoubleType.get()),
          Types.NestedField.optional(6, "ts", Types.TimestampType.withoutZone()),
          Types.NestedField.optional(7, "k", Types.IntegerType.get()));

  static Optional<Expression> convert(String col, String op, String literal) {
    return Filters.convert(SCHEMA, new ScanRequest.Predicate(col, op, literal, Optional.empty()));
  }

  @Test
  void convert_pushesExactTypes_caseInsensitively() {
    assertThat(convert("ID", ">=", "5").map(Object::toString)).contains("ref(name=\"id\") >= 5");
    assertThat(convert("name", "=", "'it''s'").map(Object::toString))
        .contains("ref(name=\"Name\") == \"it's\"");
    assertThat(convert("price", "<", "0.05")).isPresent();
    assertThat(convert("d", "=", "DATE '2024-01-31'")).isPresent();
    assertThat(convert("ts", ">", "'2024-01-31 10:00:00'")).isPresent();
    assertThat(convert("k", "<>", "7")).isPresent();
  }

  @Test
  void convert_skipsWhatIcebergWouldCompareDifferently() {
    // float/double: -0.0 vs 0.0; decimals with more digits than the column; out-of-range ints
    assertThat(convert("x", "=", "0.0")).isEmpty();
    assertThat(convert("price", "<", "0.055")).isEmpty();
    assertThat(convert("k", "=", "99999999999")).isEmpty();
    assertThat(convert("missing", "=", "1")).isEmpty();
    assertThat(convert("id", "=", "'abc'")).isEmpty();
  }

  @Test
  void toExpression_andsTheConvertibleOnes() {
    Expression e =
        Filters.toExpression(
            SCHEMA,
            List.of(
                new ScanRequest.Predicate("id", ">", "1", Optional.empty()),
                new ScanRequest.Predicate("x", ">", "1", Optional.empty())));
    assertThat(e.toString()).isEqualTo("ref(name=\"id\") > 1");
  }
}
