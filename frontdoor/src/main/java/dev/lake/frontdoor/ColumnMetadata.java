package dev.lake.frontdoor;

import static java.util.Objects.requireNonNull;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import dev.lake.core.TableRef;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.IntFunction;
import org.apache.arrow.flight.FlightProducer.ServerStreamListener;
import org.apache.arrow.flight.sql.FlightSqlColumnMetadata;
import org.apache.arrow.memory.ArrowBuf;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.dictionary.DictionaryProvider;
import org.apache.arrow.vector.ipc.message.IpcOption;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.FieldType;
import org.apache.arrow.vector.types.pojo.Schema;

/**
 * The Flight SQL column metadata ({@code ARROW:FLIGHT:SQL:TYPE_NAME}, {@code PRECISION}, {@code
 * SCALE}, {@code IS_READ_ONLY}, … and, where known, {@code CATALOG_NAME}/{@code SCHEMA_NAME}/{@code
 * TABLE_NAME}) on every result schema lake sends: JDBC's {@code ResultSetMetaData} reads precision
 * and scale only from there, so without it a DECIMAL(15,2) column reports DECIMAL(0,0).
 *
 * <p>Applied at the Flight edge only, to the planned schema (FlightInfo, GetSchema, prepared
 * statements, durable jobs) and, with the same result, to the schema message of the DoGet stream
 * ({@link #stream}), so both always agree. Field types and data are never changed; metadata a field
 * already carries is kept.
 */
final class ColumnMetadata {
  /**
   * Most decorated schemas kept: a decorated schema is a pure function of the planned schema and
   * the origins, so the GetFlightInfo and every DoGet of a repeated statement share one instead of
   * rebuilding each field's metadata per call.
   */
  static final long CACHED_SCHEMAS = 1024;

  private record Key(Schema schema, List<Optional<TableRef>> origins) {}

  private static final Cache<Key, Schema> DECORATED =
      Caffeine.newBuilder().maximumSize(CACHED_SCHEMAS).build();

  private ColumnMetadata() {}

  /** {@code schema} with column metadata; {@code origins} names source tables by position. */
  static Schema decorate(Schema schema, List<Optional<TableRef>> origins) {
    requireNonNull(schema, "schema is null");
    return DECORATED.get(
        new Key(schema, List.copyOf(origins)), k -> build(k.schema(), k.origins()));
  }

  private static Schema build(Schema schema, List<Optional<TableRef>> origins) {
    List<Field> fields = new ArrayList<>();
    List<Field> in = schema.getFields();
    for (int i = 0; i < in.size(); i++) {
      fields.add(decorate(in.get(i), i < origins.size() ? origins.get(i) : Optional.empty()));
    }
    return new Schema(fields, schema.getCustomMetadata());
  }

  /** {@code schema} with type metadata only (no table provenance). */
  static Schema decorate(Schema schema) {
    return decorate(schema, List.of());
  }

  private static Field decorate(Field field, Optional<TableRef> origin) {
    ArrowType type = field.getType();
    FlightSqlColumnMetadata.Builder b =
        new FlightSqlColumnMetadata.Builder()
            .typeName(typeName(type))
            .isReadOnly(true)
            .isAutoIncrement(false)
            .isSearchable(true)
            .isCaseSensitive(type instanceof ArrowType.Utf8 || type instanceof ArrowType.LargeUtf8);
    if (type instanceof ArrowType.Decimal d) {
      b.precision(d.getPrecision()).scale(d.getScale());
    } else if (type instanceof ArrowType.Int i) {
      b.precision(integerDigits(i.getBitWidth())).scale(0);
    } else if (type instanceof ArrowType.FloatingPoint f) {
      b.precision(
          f.getPrecision() == org.apache.arrow.vector.types.FloatingPointPrecision.DOUBLE ? 15 : 7);
    }
    origin.ifPresent(
        o -> b.catalogName(o.catalog()).schemaName(o.namespace()).tableName(o.table()));
    Map<String, String> metadata = new HashMap<>(b.build().getMetadataMap());
    if (field.getMetadata() != null) {
      metadata.putAll(field.getMetadata());
    }
    FieldType ft =
        new FieldType(field.isNullable(), type, field.getDictionary(), Map.copyOf(metadata));
    return new Field(field.getName(), ft, field.getChildren());
  }

  private static int integerDigits(int bits) {
    return switch (bits) {
      case 8 -> 3;
      case 16 -> 5;
      case 32 -> 10;
      default -> 19;
    };
  }

  /** The SQL type name lake's engine (DuckDB) uses for an Arrow type. */
  static String typeName(ArrowType type) {
    if (type instanceof ArrowType.Int i) {
      String base =
          switch (i.getBitWidth()) {
            case 8 -> "TINYINT";
            case 16 -> "SMALLINT";
            case 32 -> "INTEGER";
            default -> "BIGINT";
          };
      return i.getIsSigned() ? base : "U" + base;
    }
    if (type instanceof ArrowType.Decimal) {
      return "DECIMAL";
    }
    if (type instanceof ArrowType.FloatingPoint f) {
      return f.getPrecision() == org.apache.arrow.vector.types.FloatingPointPrecision.DOUBLE
          ? "DOUBLE"
          : "FLOAT";
    }
    if (type instanceof ArrowType.Utf8
        || type instanceof ArrowType.LargeUtf8
        || type instanceof ArrowType.Utf8View) {
      return "VARCHAR";
    }
    if (type instanceof ArrowType.Binary
        || type instanceof ArrowType.LargeBinary
        || type instanceof ArrowType.FixedSizeBinary) {
      return "BLOB";
    }
    if (type instanceof ArrowType.Bool) {
      return "BOOLEAN";
    }
    if (type instanceof ArrowType.Date) {
      return "DATE";
    }
    if (type instanceof ArrowType.Time) {
      return "TIME";
    }
    if (type instanceof ArrowType.Timestamp t) {
      return t.getTimezone() == null ? "TIMESTAMP" : "TIMESTAMP WITH TIME ZONE";
    }
    if (type instanceof ArrowType.Interval || type instanceof ArrowType.Duration) {
      return "INTERVAL";
    }
    if (type instanceof ArrowType.List
        || type instanceof ArrowType.LargeList
        || type instanceof ArrowType.FixedSizeList) {
      return "LIST";
    }
    if (type instanceof ArrowType.Struct) {
      return "STRUCT";
    }
    if (type instanceof ArrowType.Map) {
      return "MAP";
    }
    if (type instanceof ArrowType.Null) {
      return "NULL";
    }
    return type.getTypeID().name();
  }

  /**
   * Wraps a DoGet listener so the stream's schema message carries the same metadata as the planned
   * schema: {@code origins} maps the column count to the columns' tables (as for {@link
   * #decorate(Schema, List)}). The batches are the producer's vectors, unchanged, sent under a root
   * whose fields carry the metadata.
   */
  static ServerStreamListener stream(
      ServerStreamListener listener, IntFunction<List<Optional<TableRef>>> origins) {
    return new Decorating(listener, origins);
  }

  private static final class Decorating extends ForwardingStreamListener {
    private final IntFunction<List<Optional<TableRef>>> origins;
    private VectorSchemaRoot source;
    private VectorSchemaRoot view;

    Decorating(ServerStreamListener delegate, IntFunction<List<Optional<TableRef>>> origins) {
      super(delegate);
      this.origins = requireNonNull(origins, "origins is null");
    }

    @Override
    public void start(VectorSchemaRoot root, DictionaryProvider dictionaries, IpcOption option) {
      source = root;
      Schema schema = root.getSchema();
      Schema decorated = decorate(schema, origins.apply(schema.getFields().size()));
      view = new VectorSchemaRoot(decorated, root.getFieldVectors(), root.getRowCount());
      delegate.start(view, dictionaries, option);
    }

    @Override
    public void putNext() {
      view.setRowCount(source.getRowCount());
      delegate.putNext();
    }

    @Override
    public void putNext(ArrowBuf metadata) {
      view.setRowCount(source.getRowCount());
      delegate.putNext(metadata);
    }
  }
}
