package dev.lake.frontdoor;

import static org.assertj.core.api.Assertions.assertThat;

import dev.lake.core.TableRef;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.apache.arrow.vector.types.DateUnit;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.FieldType;
import org.apache.arrow.vector.types.pojo.Schema;
import org.junit.jupiter.api.Test;

class ColumnMetadataTest {
  private static Field field(String name, ArrowType type, Map<String, String> metadata) {
    return new Field(name, new FieldType(true, type, null, metadata), null);
  }

  @Test
  void decorate_addsFlightSqlMetadataAndKeepsTypesNamesAndExistingMetadata() {
    Schema planned =
        new Schema(
            List.of(
                field("price", new ArrowType.Decimal(15, 2, 128), Map.of("mine", "kept")),
                field("d", new ArrowType.Date(DateUnit.DAY), null),
                field("n", new ArrowType.Int(32, true), null)));

    Schema out =
        ColumnMetadata.decorate(
            planned,
            List.of(Optional.of(new TableRef("lake", "tpch", "lineitem")), Optional.empty()));

    Map<String, String> price = out.getFields().get(0).getMetadata();
    assertThat(price)
        .containsEntry("ARROW:FLIGHT:SQL:PRECISION", "15")
        .containsEntry("ARROW:FLIGHT:SQL:SCALE", "2")
        .containsEntry("ARROW:FLIGHT:SQL:TYPE_NAME", "DECIMAL")
        .containsEntry("ARROW:FLIGHT:SQL:IS_READ_ONLY", "1")
        .containsEntry("ARROW:FLIGHT:SQL:CATALOG_NAME", "lake")
        .containsEntry("ARROW:FLIGHT:SQL:SCHEMA_NAME", "tpch")
        .containsEntry("ARROW:FLIGHT:SQL:TABLE_NAME", "lineitem")
        .containsEntry("mine", "kept");
    assertThat(out.getFields().get(1).getMetadata())
        .containsEntry("ARROW:FLIGHT:SQL:TYPE_NAME", "DATE")
        .doesNotContainKey("ARROW:FLIGHT:SQL:TABLE_NAME");
    assertThat(out.getFields().get(2).getMetadata())
        .containsEntry("ARROW:FLIGHT:SQL:TYPE_NAME", "INTEGER")
        .containsEntry("ARROW:FLIGHT:SQL:PRECISION", "10");
    for (int i = 0; i < planned.getFields().size(); i++) {
      assertThat(out.getFields().get(i).getType()).isEqualTo(planned.getFields().get(i).getType());
      assertThat(out.getFields().get(i).getName()).isEqualTo(planned.getFields().get(i).getName());
    }
  }

  @Test
  void decorate_sharesOneResultForAnEqualSchema_andKeepsOriginsApart() {
    // GIVEN two equal planned schemas, as a GetFlightInfo and a DoGet of one statement see them
    Schema first = new Schema(List.of(field("n_name", new ArrowType.Utf8(), null)));
    Schema second = new Schema(List.of(field("n_name", new ArrowType.Utf8(), null)));
    List<Optional<TableRef>> nation = List.of(Optional.of(new TableRef("lake", "tpch", "nation")));

    // WHEN both are decorated with the same origins, and once with none
    Schema a = ColumnMetadata.decorate(first, nation);
    Schema b = ColumnMetadata.decorate(second, nation);
    Schema none = ColumnMetadata.decorate(second, List.of(Optional.empty()));

    // THEN the decorated schema is built once and shared; other origins get their own
    assertThat(b).isSameAs(a);
    assertThat(a.getFields().get(0).getMetadata())
        .containsEntry("ARROW:FLIGHT:SQL:TABLE_NAME", "nation");
    assertThat(none.getFields().get(0).getMetadata())
        .doesNotContainKey("ARROW:FLIGHT:SQL:TABLE_NAME")
        .containsEntry("ARROW:FLIGHT:SQL:TYPE_NAME", "VARCHAR");
  }
}
