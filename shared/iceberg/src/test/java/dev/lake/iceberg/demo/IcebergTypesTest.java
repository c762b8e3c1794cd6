package dev.lake.iceberg.demo;

import static org.assertj.core.api.Assertions.assertThat;

import dev.lake.core.ScanRequest;
import dev.lake.core.TableRef;
import dev.lake.iceberg.IcebergConfig;
import dev.lake.iceberg.IcebergFederation;
import dev.lake.iceberg.IcebergSnapshot;
import java.math.BigDecimal;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.ipc.ArrowReader;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Schema;
import org.apache.iceberg.Table;
import org.apache.iceberg.catalog.Namespace;
import org.apache.iceberg.catalog.SupportsNamespaces;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.data.GenericRecord;
import org.apache.iceberg.data.Record;
import org.apache.iceberg.types.Types;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Every supported Iceberg type arrives in Arrow with the documented mapping and value. */
class IcebergTypesTest {
  static final Types.StructType POINT =
      Types.StructType.of(
          Types.NestedField.optional(20, "a", Types.IntegerType.get()),
          Types.NestedField.optional(21, "b", Types.StringType.get()));
  static final Schema SCHEMA =
      new Schema(
          Types.NestedField.required(1, "b", Types.BooleanType.get()),
          Types.NestedField.optional(2, "i", Types.IntegerType.get()),
          Types.NestedField.optional(3, "l", Types.LongType.get()),
          Types.NestedField.optional(4, "f", Types.FloatType.get()),
          Types.NestedField.optional(5, "d", Types.DoubleType.get()),
          Types.NestedField.optional(6, "dec", Types.DecimalType.of(9, 3)),
          Types.NestedField.optional(7, "dt", Types.DateType.get()),
          Types.NestedField.optional(8, "tm", Types.TimeType.get()),
          Types.NestedField.optional(9, "ts", Types.TimestampType.withoutZone()),
          Types.NestedField.optional(10, "tstz", Types.TimestampType.withZone()),
          Types.NestedField.optional(11, "s", Types.StringType.get()),
          Types.NestedField.optional(12, "u", Types.UUIDType.get()),
          Types.NestedField.optional(13, "fx", Types.FixedType.ofLength(3)),
          Types.NestedField.optional(14, "bin", Types.BinaryType.get()),
          Types.NestedField.optional(15, "st", POINT),
          Types.NestedField.optional(
              16, "li", Types.ListType.ofOptional(17, Types.IntegerType.get())),
          Types.NestedField.optional(
              18,
              "mp",
              Types.MapType.ofOptional(22, 23, Types.StringType.get(), Types.IntegerType.get())));

  @TempDir Path dir;

  @Test
  void scan_mapsEveryTypeToArrow_withItsValue() throws Exception {
    // GIVEN a table with one full row and one all-null row
    UUID uuid = UUID.fromString("123e4567-e89b-12d3-a456-426614174000");
    Record full = GenericRecord.create(SCHEMA);
    full.setField("b", true);
    full.setField("i", 7);
    full.setField("l", 8L);
    full.setField("f", 1.5f);
    full.setField("d", 2.5d);
    full.setField("dec", new BigDecimal("12.345"));
    full.setField("dt", LocalDate.of(2024, 2, 29));
    full.setField("tm", LocalTime.of(10, 11, 12));
    full.setField("ts", LocalDateTime.of(2024, 1, 2, 3, 4, 5));
    full.setField("tstz", OffsetDateTime.of(2024, 1, 2, 3, 4, 5, 0, ZoneOffset.UTC));
    full.setField("s", "héllo");
    full.setField("u", uuid);
    full.setField("fx", new byte[] {1, 2, 3});
    full.setField("bin", ByteBuffer.wrap(new byte[] {9, 8}));
    Record point = GenericRecord.create(POINT);
    point.set(0, 1);
    point.set(1, "x");
    full.setField("st", point);
    full.setField("li", java.util.Arrays.asList(1, null, 3));
    full.setField("mp", Map.of("k", 5));
    Record empty = GenericRecord.create(SCHEMA);
    empty.setField("b", false);

    try (RestCatalogFixture fixture = RestCatalogFixture.startLocal(dir);
        BufferAllocator allocator = new RootAllocator()) {
      ((SupportsNamespaces) fixture.backend()).createNamespace(Namespace.of("types"));
      Table t =
          fixture
              .backend()
              .createTable(
                  TableIdentifier.of("types", "all"),
                  SCHEMA,
                  PartitionSpec.unpartitioned(),
                  Map.of("format-version", "2"));
      DemoTables.append(t, List.of(full, empty));
      try (IcebergFederation iceberg =
          IcebergFederation.connect(
              IcebergConfig.fromFlags(fixture.uri().toString(), null, "types"), allocator)) {
        TableRef ref = TableRef.parse("iceberg.types.all");
        IcebergSnapshot s = (IcebergSnapshot) iceberg.resolver().resolve(ref);

        // WHEN scanned
        List<ArrowReader> streams =
            iceberg.reader().scan(ref, s, new ScanRequest(List.of(), List.of(), 10, 1), allocator);
        List<Map<String, Object>> rows = new ArrayList<>();
        try (ArrowReader r = streams.get(0)) {
          while (r.loadNextBatch()) {
            VectorSchemaRoot root = r.getVectorSchemaRoot();
            // THEN the Arrow types follow the documented mapping
            assertThat(root.getSchema().findField("dec").getType())
                .isEqualTo(new ArrowType.Decimal(9, 3, 128));
            assertThat(root.getSchema().findField("tstz").getType().toString())
                .isEqualTo("Timestamp(MICROSECOND, UTC)");
            assertThat(root.getSchema().findField("u").getType())
                .isEqualTo(ArrowType.Utf8.INSTANCE);
            for (int i = 0; i < root.getRowCount(); i++) {
              Map<String, Object> row = new java.util.HashMap<>();
              for (var v : root.getFieldVectors()) {
                Object o = v.getObject(i);
                row.put(
                    v.getName(),
                    o == null
                        ? null
                        : o instanceof byte[] bytes
                            ? java.util.Arrays.toString(bytes)
                            : o.toString());
              }
              rows.add(row);
            }
          }
        }

        // AND the values survive
        Map<String, Object> a =
            rows.stream().filter(m -> m.get("b").equals("true")).findFirst().orElseThrow();
        assertThat(a)
            .containsEntry("i", "7")
            .containsEntry("l", "8")
            .containsEntry("f", "1.5")
            .containsEntry("d", "2.5")
            .containsEntry("dec", "12.345")
            .containsEntry("dt", Long.toString(LocalDate.of(2024, 2, 29).toEpochDay()))
            .containsEntry("ts", "2024-01-02T03:04:05")
            .containsEntry("s", "héllo")
            .containsEntry("u", uuid.toString())
            .containsEntry("fx", "[1, 2, 3]")
            .containsEntry("bin", "[9, 8]")
            .containsEntry("st", "{\"a\":1,\"b\":\"x\"}")
            .containsEntry("li", "[1,null,3]");
        assertThat(a.get("tm"))
            .isEqualTo(Long.toString(LocalTime.of(10, 11, 12).toNanoOfDay() / 1000));
        assertThat(a.get("mp").toString()).contains("\"key\":\"k\"").contains("\"value\":5");
        Map<String, Object> b =
            rows.stream().filter(m -> m.get("b").equals("false")).findFirst().orElseThrow();
        assertThat(b)
            .containsEntry("i", null)
            .containsEntry("st", null)
            .containsEntry("li", null)
            .containsEntry("mp", null);
        assertThat(rows).hasSize(2);
      }
    }
  }
}
