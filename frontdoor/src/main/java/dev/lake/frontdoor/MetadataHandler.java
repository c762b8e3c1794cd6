package dev.lake.frontdoor;

import static java.util.Objects.requireNonNull;

import dev.lake.core.AdmittedQuery;
import dev.lake.core.Catalogs;
import dev.lake.core.LakeException;
import dev.lake.core.Principal;
import dev.lake.core.Snapshot;
import dev.lake.core.TableReader;
import dev.lake.core.TableRef;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.TreeSet;
import java.util.function.Consumer;
import org.apache.arrow.flight.FlightProducer.ServerStreamListener;
import org.apache.arrow.flight.sql.FlightSqlProducer.Schemas;
import org.apache.arrow.flight.sql.impl.FlightSql.CommandGetDbSchemas;
import org.apache.arrow.flight.sql.impl.FlightSql.CommandGetTables;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.BitVector;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.IntVector;
import org.apache.arrow.vector.VarBinaryVector;
import org.apache.arrow.vector.VarCharVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.types.pojo.Schema;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Catalog metadata for browsing tools. Every listing is derived from the tables the principal is
 * granted ({@link Catalogs#visibleTables}), so nothing ungranted is ever named. Results are small
 * and sent as one batch. Listings that read catalogs (catalogs, schemas, tables) pass the same
 * tenant-then-global {@link AdmissionGates} as queries; filter patterns match in linear time
 * ({@link LikePattern}).
 */
final class MetadataHandler {
  private static final Logger LOG = LoggerFactory.getLogger(MetadataHandler.class);
  static final String TABLE_TYPE = "TABLE";

  private final Catalogs catalogs;
  private final List<TableReader> readers;
  private final BufferAllocator allocator;
  private final AdmissionGates gates;

  MetadataHandler(
      Catalogs catalogs,
      List<TableReader> readers,
      BufferAllocator allocator,
      AdmissionGates gates) {
    this.catalogs = requireNonNull(catalogs, "catalogs is null");
    this.readers = List.copyOf(requireNonNull(readers, "readers is null"));
    this.allocator = requireNonNull(allocator, "allocator is null");
    this.gates = requireNonNull(gates, "gates is null");
  }

  void catalogs(Principal principal, ServerStreamListener listener) {
    try (AdmissionGates.Permit permit = gates.enter(principal.tenant())) {
      catalogsAdmitted(principal, listener);
    }
  }

  void schemas(Principal principal, CommandGetDbSchemas command, ServerStreamListener listener) {
    try (AdmissionGates.Permit permit = gates.enter(principal.tenant())) {
      schemasAdmitted(principal, command, listener);
    }
  }

  void tables(Principal principal, CommandGetTables command, ServerStreamListener listener) {
    try (AdmissionGates.Permit permit = gates.enter(principal.tenant())) {
      tablesAdmitted(principal, command, listener);
    }
  }

  private void catalogsAdmitted(Principal principal, ServerStreamListener listener) {
    TreeSet<String> names = new TreeSet<>();
    catalogs.visibleTables(principal).forEach(t -> names.add(t.catalog()));
    List<String> rows = List.copyOf(names);
    send(
        Schemas.GET_CATALOGS_SCHEMA,
        rows.size(),
        root -> {
          for (int i = 0; i < rows.size(); i++) {
            setText(root, "catalog_name", i, rows.get(i));
          }
        },
        listener);
  }

  private void schemasAdmitted(
      Principal principal, CommandGetDbSchemas command, ServerStreamListener listener) {
    Optional<String> catalog =
        command.hasCatalog() ? Optional.of(command.getCatalog()) : Optional.empty();
    LikePattern schemaPattern =
        LikePattern.compile(
            command.hasDbSchemaFilterPattern() ? command.getDbSchemaFilterPattern() : null);
    TreeSet<String> keys = new TreeSet<>();
    List<String[]> rows = new ArrayList<>();
    for (TableRef t : catalogs.visibleTables(principal)) {
      if (catalog.map(c -> c.equals(t.catalog())).orElse(true)
          && schemaPattern.matches(t.namespace())
          && keys.add(t.catalog() + "\u0000" + t.namespace())) {
        rows.add(new String[] {t.catalog(), t.namespace()});
      }
    }
    send(
        Schemas.GET_SCHEMAS_SCHEMA,
        rows.size(),
        root -> {
          for (int i = 0; i < rows.size(); i++) {
            setText(root, "catalog_name", i, rows.get(i)[0]);
            setText(root, "db_schema_name", i, rows.get(i)[1]);
          }
        },
        listener);
  }

  private void tablesAdmitted(
      Principal principal, CommandGetTables command, ServerStreamListener listener) {
    Optional<String> catalog =
        command.hasCatalog() ? Optional.of(command.getCatalog()) : Optional.empty();
    LikePattern schemaPattern =
        LikePattern.compile(
            command.hasDbSchemaFilterPattern() ? command.getDbSchemaFilterPattern() : null);
    LikePattern tablePattern =
        LikePattern.compile(
            command.hasTableNameFilterPattern() ? command.getTableNameFilterPattern() : null);
    boolean typeMatches =
        command.getTableTypesCount() == 0 || command.getTableTypesList().contains(TABLE_TYPE);
    List<TableRef> refs = new ArrayList<>();
    if (typeMatches) {
      for (TableRef t : catalogs.visibleTables(principal)) {
        if (catalog.map(c -> c.equals(t.catalog())).orElse(true)
            && schemaPattern.matches(t.namespace())
            && tablePattern.matches(t.table())) {
          refs.add(t);
        }
      }
    }
    boolean withSchema = command.getIncludeSchema();
    List<byte[]> schemas = new ArrayList<>();
    List<TableRef> rows = new ArrayList<>();
    for (TableRef ref : refs) {
      if (withSchema) {
        Optional<Schema> schema = tableSchema(principal, ref);
        if (schema.isEmpty()) {
          continue;
        }
        schemas.add(StatementHandler.serialize(schema.get()));
      }
      rows.add(ref);
    }
    send(
        withSchema ? Schemas.GET_TABLES_SCHEMA : Schemas.GET_TABLES_SCHEMA_NO_SCHEMA,
        rows.size(),
        root -> {
          for (int i = 0; i < rows.size(); i++) {
            setText(root, "catalog_name", i, rows.get(i).catalog());
            setText(root, "db_schema_name", i, rows.get(i).namespace());
            setText(root, "table_name", i, rows.get(i).table());
            setText(root, "table_type", i, TABLE_TYPE);
            if (withSchema) {
              ((VarBinaryVector) root.getVector("table_schema")).setSafe(i, schemas.get(i));
            }
          }
        },
        listener);
  }

  void tableTypes(ServerStreamListener listener) {
    send(
        Schemas.GET_TABLE_TYPES_SCHEMA,
        1,
        root -> setText(root, "table_type", 0, TABLE_TYPE),
        listener);
  }

  /** Primary/foreign keys and cross references: lake tables declare none. */
  void empty(Schema schema, ServerStreamListener listener) {
    send(schema, 0, root -> {}, listener);
  }

  void typeInfo(Optional<Integer> dataType, ServerStreamListener listener) {
    List<XdbcTypes.Row> rows =
        XdbcTypes.ROWS.stream()
            .filter(r -> dataType.map(d -> d == r.dataType()).orElse(true))
            .toList();
    send(Schemas.GET_TYPE_INFO_SCHEMA, rows.size(), root -> XdbcTypes.fill(root, rows), listener);
  }

  /** The schema of a visible table at its current snapshot, or empty if it vanished meanwhile. */
  private Optional<Schema> tableSchema(Principal principal, TableRef ref) {
    try {
      Snapshot snapshot =
          catalogs
              .resolveAll(principal, AdmittedQuery.of("", AdmittedQuery.Kind.SELECT, List.of(ref)))
              .resolve(ref);
      for (TableReader reader : readers) {
        if (reader.supports(snapshot)) {
          return Optional.of(reader.schema(ref, snapshot));
        }
      }
      return Optional.empty();
    } catch (LakeException e) {
      LOG.debug("table {} skipped in metadata: {}", ref, e.getMessage());
      return Optional.empty();
    }
  }

  private void send(
      Schema schema, int rows, Consumer<VectorSchemaRoot> fill, ServerStreamListener listener) {
    try (VectorSchemaRoot root = VectorSchemaRoot.create(schema, allocator)) {
      root.allocateNew();
      fill.accept(root);
      root.setRowCount(rows);
      listener.start(root);
      listener.putNext();
      listener.completed();
    }
  }

  static void setText(VectorSchemaRoot root, String column, int row, String value) {
    VarCharVector v = (VarCharVector) root.getVector(column);
    if (value == null) {
      v.setNull(row);
    } else {
      v.setSafe(row, value.getBytes(StandardCharsets.UTF_8));
    }
  }

  static void setInt(VectorSchemaRoot root, String column, int row, Integer value) {
    IntVector v = (IntVector) root.getVector(column);
    if (value == null) {
      v.setNull(row);
    } else {
      v.setSafe(row, value);
    }
  }

  static void setBit(VectorSchemaRoot root, String column, int row, Boolean value) {
    BitVector v = (BitVector) root.getVector(column);
    if (value == null) {
      v.setNull(row);
    } else {
      v.setSafe(row, value ? 1 : 0);
    }
  }

  static void setNull(VectorSchemaRoot root, String column, int row) {
    FieldVector v = root.getVector(column);
    v.setNull(row);
  }
}
