package dev.lake.engine;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.lake.core.AdmittedQuery;
import dev.lake.core.ErrorCode;
import dev.lake.core.LakeException;
import dev.lake.core.Snapshot;
import dev.lake.core.SnapshotSet;
import dev.lake.core.TableReader;
import dev.lake.core.TableRef;
import dev.lake.core.testing.TestSnapshot;
import java.util.List;
import java.util.Map;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.ipc.ArrowReader;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.FieldType;
import org.apache.arrow.vector.types.pojo.Schema;
import org.junit.jupiter.api.Test;

/** Parameter typing by a real DuckDB, kept per statement text and exact snapshot set. */
class ParameterTypesTest {
  private static final TableRef NATION = new TableRef("lake", "tpch", "nation");

  /** The test format's reader: a key column and, from version 2 on, a DECIMAL balance. */
  private static final TableReader READER =
      new TableReader() {
        @Override
        public boolean supports(Snapshot snapshot) {
          return snapshot instanceof TestSnapshot;
        }

        @Override
        public Schema schema(TableRef ref, Snapshot snapshot) {
          Field key = new Field("n_key", FieldType.nullable(new ArrowType.Int(32, true)), null);
          Field value =
              ((TestSnapshot) snapshot).version() < 2
                  ? new Field("n_value", FieldType.nullable(new ArrowType.Int(64, true)), null)
                  : new Field(
                      "n_value", FieldType.nullable(new ArrowType.Decimal(15, 2, 128)), null);
          return new Schema(List.of(key, value));
        }

        @Override
        public List<ArrowReader> scan(
            TableRef ref,
            Snapshot snapshot,
            dev.lake.core.ScanRequest request,
            BufferAllocator allocator) {
          throw new UnsupportedOperationException("typing never scans");
        }
      };

  private static AdmittedQuery query(String sql) {
    return AdmittedQuery.of(sql, AdmittedQuery.Kind.SELECT, List.of(NATION));
  }

  private static SnapshotSet at(long version) {
    return new SnapshotSet(Map.of(NATION, new TestSnapshot("mem://nation", version)));
  }

  @Test
  void parameters_typesOncePerStatementAndSnapshotSet() {
    // GIVEN a typer and a statement with two placeholders
    ParameterTypes typer = new ParameterTypes(List.of(READER));
    AdmittedQuery q = query("SELECT * FROM lake.tpch.nation WHERE n_key = ? AND n_value > ?");

    // WHEN it is prepared three times at the same snapshot
    Schema first = typer.parameters(q, at(1));
    Schema second = typer.parameters(q, at(1));
    Schema third = typer.parameters(q, at(1));

    // THEN DuckDB typed it once, and every answer is the same schema
    assertThat(typer.typings()).isEqualTo(1);
    assertThat(second).isEqualTo(first).isEqualTo(third);
    assertThat(first.getFields())
        .extracting(Field::getType)
        .containsExactly(new ArrowType.Int(32, true), new ArrowType.Int(64, true));
  }

  @Test
  void parameters_retypes_whenTheSnapshotChangesTheColumnType() {
    // GIVEN a statement typed at version 1 (BIGINT column)
    ParameterTypes typer = new ParameterTypes(List.of(READER));
    AdmittedQuery q = query("SELECT * FROM lake.tpch.nation WHERE n_value > ?");
    assertThat(typer.parameters(q, at(1)).getFields().get(0).getType())
        .isEqualTo(new ArrowType.Int(64, true));

    // WHEN the table moved to version 2, where the column is DECIMAL(15,2)
    Schema newer = typer.parameters(q, at(2));

    // THEN the kept schema of version 1 is not reused: the parameter is typed as the new column
    assertThat(typer.typings()).isEqualTo(2);
    assertThat(newer.getFields().get(0).getType()).isEqualTo(new ArrowType.Decimal(15, 2, 128));
  }

  @Test
  void parameters_keepsNoFailure_andTheNextStatementIsTyped() {
    // GIVEN a typer and a statement DuckDB cannot bind (unknown column)
    ParameterTypes typer = new ParameterTypes(List.of(READER));
    AdmittedQuery bad = query("SELECT * FROM lake.tpch.nation WHERE no_such_column = ?");

    // WHEN it is prepared twice, THEN both fail the same way: a failure is never kept
    for (int i = 0; i < 2; i++) {
      assertThatThrownBy(() -> typer.parameters(bad, at(1)))
          .isInstanceOfSatisfying(
              LakeException.class, e -> assertThat(e.code()).isEqualTo(ErrorCode.QUERY_FAILED));
    }
    assertThat(typer.typings()).isEqualTo(2);

    // AND a good statement afterwards is typed
    assertThat(
            typer
                .parameters(query("SELECT * FROM lake.tpch.nation WHERE n_key = ?"), at(1))
                .getFields())
        .hasSize(1);
  }

  @Test
  void parameters_withoutPlaceholders_buildsNoDatabase() {
    ParameterTypes typer = new ParameterTypes(List.of(READER));

    Schema none = typer.parameters(query("SELECT * FROM lake.tpch.nation"), at(1));

    assertThat(none.getFields()).isEmpty();
    assertThat(typer.typings()).isZero();
  }

  @Test
  void arrowType_followsDuckDbParameterTypes() {
    assertThat(ParameterTypes.arrowType("DECIMAL(15,2)"))
        .isEqualTo(new ArrowType.Decimal(15, 2, 128));
    assertThat(ParameterTypes.arrowType("INTEGER")).isEqualTo(new ArrowType.Int(32, true));
    assertThat(ParameterTypes.arrowType("INVALID")).isEqualTo(ArrowType.Utf8.INSTANCE);
    assertThat(ParameterTypes.duckType(new ArrowType.Decimal(15, 2, 128)))
        .isEqualTo("DECIMAL(15,2)");
  }
}
