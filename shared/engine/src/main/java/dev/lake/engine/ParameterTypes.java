package dev.lake.engine;

import static java.util.Objects.requireNonNull;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import dev.lake.core.AdmittedQuery;
import dev.lake.core.ErrorCode;
import dev.lake.core.LakeException;
import dev.lake.core.Snapshot;
import dev.lake.core.SnapshotSet;
import dev.lake.core.SqlQuoting;
import dev.lake.core.TableReader;
import dev.lake.core.TableRef;
import java.sql.Connection;
import java.sql.ParameterMetaData;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Properties;
import java.util.Set;
import java.util.concurrent.atomic.AtomicLong;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.arrow.vector.types.DateUnit;
import org.apache.arrow.vector.types.FloatingPointPrecision;
import org.apache.arrow.vector.types.TimeUnit;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.FieldType;
import org.apache.arrow.vector.types.pojo.Schema;
import org.duckdb.DuckDBDriver;

/**
 * Types a statement's placeholders the way DuckDB binds them: in a private, empty in-memory DuckDB
 * it creates empty tables with the sealed tables' column types under their qualified names, locks
 * that database down, and only prepares the (already admitted) statement. Nothing is executed and
 * no data is read. Statements without a {@code ?} or {@code $} skip all of this.
 *
 * <p>The typed schema is a pure function of the statement text and the tables' schemas at the
 * pinned snapshots (immutable), so it is kept per (text, snapshot set) and a repeated prepare — the
 * JDBC driver prepares every {@code PreparedStatement} and every {@code executeQuery} — builds no
 * database. A newer snapshot is a new key, so a kept schema is never stale; a failure is not kept.
 *
 * <p>The engine port's {@link dev.lake.core.QueryEngine#parameterTypes} (the front door types no
 * SQL itself). Placeholders DuckDB cannot type (e.g. {@code SELECT ?}) are declared as strings.
 */
final class ParameterTypes {
  private static final Schema NONE = new Schema(List.of());
  private static final Pattern DECIMAL = Pattern.compile("DECIMAL\\((\\d+),(\\d+)\\)");

  /** Characters of statement text whose parameter schema is kept (+256 per entry and table). */
  static final long CACHED_SQL_CHARS = 4L << 20;

  private record Key(String sql, SnapshotSet snapshots) {}

  private final List<TableReader> readers;
  private final Cache<Key, Schema> typed =
      Caffeine.newBuilder()
          .maximumWeight(CACHED_SQL_CHARS)
          .<Key, Schema>weigher(
              (key, schema) -> key.sql().length() + 256 * (1 + key.snapshots().snapshots().size()))
          .build();
  private final AtomicLong typings = new AtomicLong();

  ParameterTypes(List<TableReader> readers) {
    this.readers = List.copyOf(requireNonNull(readers, "readers is null"));
  }

  /**
   * The Arrow types of {@code query}'s {@code ?} / {@code $n} placeholders, in order (an empty
   * schema when it has none); QUERY_FAILED when DuckDB cannot bind the statement.
   */
  Schema parameters(AdmittedQuery query, SnapshotSet snapshots) {
    if (query.sql().indexOf('?') < 0 && query.sql().indexOf('$') < 0) {
      return NONE;
    }
    return typed.get(new Key(query.sql(), snapshots), key -> type(query, snapshots));
  }

  /** How many statements were typed by DuckDB (not answered from the kept schemas); for tests. */
  long typings() {
    return typings.get();
  }

  private Schema type(AdmittedQuery query, SnapshotSet snapshots) {
    typings.incrementAndGet();
    try (Connection c = new DuckDBDriver().connect("jdbc:duckdb:", new Properties());
        Statement s = c.createStatement()) {
      s.execute("SET threads = 1");
      s.execute("SET memory_limit = '64MiB'");
      s.execute("SET autoinstall_known_extensions = false");
      s.execute("SET autoload_known_extensions = false");
      Set<String> catalogs = new HashSet<>();
      Set<String> namespaces = new HashSet<>();
      for (TableRef ref : query.tables()) {
        String catalog = SqlQuoting.identifier(ref.catalog());
        String namespace = catalog + "." + SqlQuoting.identifier(ref.namespace());
        if (catalogs.add(catalog)) {
          s.execute("ATTACH ':memory:' AS " + catalog);
        }
        if (namespaces.add(namespace)) {
          s.execute("CREATE SCHEMA " + namespace);
        }
        s.execute(
            "CREATE TABLE "
                + namespace
                + "."
                + SqlQuoting.identifier(ref.table())
                + " ("
                + columns(schema(ref, snapshots.resolve(ref)))
                + ")");
      }
      s.execute("SET enable_external_access = false");
      s.execute("SET lock_configuration = true");
      try (PreparedStatement ps = c.prepareStatement(query.sql())) {
        ParameterMetaData md = ps.getParameterMetaData();
        List<Field> fields = new ArrayList<>();
        for (int i = 1; i <= md.getParameterCount(); i++) {
          fields.add(
              new Field(
                  "parameter_" + i,
                  FieldType.nullable(arrowType(md.getParameterTypeName(i))),
                  null));
        }
        return new Schema(fields);
      }
    } catch (SQLException e) {
      throw new LakeException(
          ErrorCode.QUERY_FAILED,
          "Cannot type the statement's parameters: " + firstLine(e.getMessage()));
    }
  }

  private Schema schema(TableRef ref, Snapshot snapshot) {
    for (TableReader r : readers) {
      if (r.supports(snapshot)) {
        return r.schema(ref, snapshot);
      }
    }
    throw new LakeException(
        ErrorCode.UNSUPPORTED, "No reader for " + snapshot.getClass().getSimpleName());
  }

  private static String columns(Schema schema) {
    List<String> cols = new ArrayList<>();
    for (Field f : schema.getFields()) {
      cols.add(SqlQuoting.identifier(f.getName()) + " " + duckType(f.getType()));
    }
    return String.join(", ", cols);
  }

  /** The DuckDB column type of an Arrow type; types placeholders rarely meet become VARCHAR. */
  static String duckType(ArrowType type) {
    if (type instanceof ArrowType.Bool) {
      return "BOOLEAN";
    }
    if (type instanceof ArrowType.Int i) {
      return switch (i.getBitWidth()) {
        case 8 -> "TINYINT";
        case 16 -> "SMALLINT";
        case 32 -> "INTEGER";
        default -> "BIGINT";
      };
    }
    if (type instanceof ArrowType.FloatingPoint f) {
      return f.getPrecision() == FloatingPointPrecision.DOUBLE ? "DOUBLE" : "FLOAT";
    }
    if (type instanceof ArrowType.Decimal d) {
      return "DECIMAL(" + d.getPrecision() + "," + d.getScale() + ")";
    }
    if (type instanceof ArrowType.Date) {
      return "DATE";
    }
    if (type instanceof ArrowType.Timestamp t) {
      return t.getTimezone() == null ? "TIMESTAMP" : "TIMESTAMPTZ";
    }
    if (type instanceof ArrowType.Time) {
      return "TIME";
    }
    if (type instanceof ArrowType.Binary || type instanceof ArrowType.LargeBinary) {
      return "BLOB";
    }
    return "VARCHAR";
  }

  /** The Arrow type clients should bind for a DuckDB parameter type name. */
  static ArrowType arrowType(String duckType) {
    String t = duckType == null ? "" : duckType.toUpperCase(Locale.ROOT);
    Matcher decimal = DECIMAL.matcher(t);
    if (decimal.matches()) {
      return new ArrowType.Decimal(
          Integer.parseInt(decimal.group(1)), Integer.parseInt(decimal.group(2)), 128);
    }
    return switch (t) {
      case "BOOLEAN" -> ArrowType.Bool.INSTANCE;
      case "TINYINT" -> new ArrowType.Int(8, true);
      case "SMALLINT" -> new ArrowType.Int(16, true);
      case "INTEGER" -> new ArrowType.Int(32, true);
      case "BIGINT", "HUGEINT", "UTINYINT", "USMALLINT", "UINTEGER" -> new ArrowType.Int(64, true);
      case "FLOAT" -> new ArrowType.FloatingPoint(FloatingPointPrecision.SINGLE);
      case "DOUBLE" -> new ArrowType.FloatingPoint(FloatingPointPrecision.DOUBLE);
      case "DATE" -> new ArrowType.Date(DateUnit.DAY);
      case "TIMESTAMP" -> new ArrowType.Timestamp(TimeUnit.MICROSECOND, null);
      case "TIMESTAMP WITH TIME ZONE" -> new ArrowType.Timestamp(TimeUnit.MICROSECOND, "UTC");
      default -> ArrowType.Utf8.INSTANCE;
    };
  }

  private static String firstLine(String message) {
    String m = String.valueOf(message);
    int nl = m.indexOf('\n');
    return nl < 0 ? m : m.substring(0, nl);
  }
}
