package dev.lake.frontdoor;

import com.google.protobuf.Any;
import com.google.protobuf.Message;
import java.util.List;
import org.apache.arrow.flight.FlightDescriptor;
import org.apache.arrow.flight.FlightEndpoint;
import org.apache.arrow.flight.FlightInfo;
import org.apache.arrow.flight.Ticket;
import org.apache.arrow.flight.sql.FlightSqlProducer.Schemas;
import org.apache.arrow.flight.sql.impl.FlightSql.CommandGetCatalogs;
import org.apache.arrow.flight.sql.impl.FlightSql.CommandGetCrossReference;
import org.apache.arrow.flight.sql.impl.FlightSql.CommandGetDbSchemas;
import org.apache.arrow.flight.sql.impl.FlightSql.CommandGetExportedKeys;
import org.apache.arrow.flight.sql.impl.FlightSql.CommandGetImportedKeys;
import org.apache.arrow.flight.sql.impl.FlightSql.CommandGetPrimaryKeys;
import org.apache.arrow.flight.sql.impl.FlightSql.CommandGetSqlInfo;
import org.apache.arrow.flight.sql.impl.FlightSql.CommandGetTableTypes;
import org.apache.arrow.flight.sql.impl.FlightSql.CommandGetTables;
import org.apache.arrow.flight.sql.impl.FlightSql.CommandGetXdbcTypeInfo;
import org.apache.arrow.vector.types.pojo.Schema;

/**
 * The FlightInfo of a metadata command (catalogs, schemas, tables, table types, SQL info, XDBC type
 * info, key listings): the Flight SQL schema of that command, and one endpoint whose ticket is the
 * command itself (it holds no secret; the rows are computed at DoGet for the caller's grants).
 */
final class MetadataInfo {
  private MetadataInfo() {}

  static FlightInfo of(Message command, FlightDescriptor descriptor) {
    Ticket ticket = new Ticket(Any.pack(command).toByteArray());
    return new FlightInfo(schema(command), descriptor, List.of(new FlightEndpoint(ticket)), -1, -1);
  }

  private static Schema schema(Message command) {
    if (command instanceof CommandGetTables tables) {
      return tables.getIncludeSchema()
          ? Schemas.GET_TABLES_SCHEMA
          : Schemas.GET_TABLES_SCHEMA_NO_SCHEMA;
    }
    if (command instanceof CommandGetSqlInfo) {
      return Schemas.GET_SQL_INFO_SCHEMA;
    }
    if (command instanceof CommandGetXdbcTypeInfo) {
      return Schemas.GET_TYPE_INFO_SCHEMA;
    }
    if (command instanceof CommandGetCatalogs) {
      return Schemas.GET_CATALOGS_SCHEMA;
    }
    if (command instanceof CommandGetDbSchemas) {
      return Schemas.GET_SCHEMAS_SCHEMA;
    }
    if (command instanceof CommandGetTableTypes) {
      return Schemas.GET_TABLE_TYPES_SCHEMA;
    }
    if (command instanceof CommandGetPrimaryKeys) {
      return Schemas.GET_PRIMARY_KEYS_SCHEMA;
    }
    if (command instanceof CommandGetExportedKeys) {
      return Schemas.GET_EXPORTED_KEYS_SCHEMA;
    }
    if (command instanceof CommandGetImportedKeys) {
      return Schemas.GET_IMPORTED_KEYS_SCHEMA;
    }
    if (command instanceof CommandGetCrossReference) {
      return Schemas.GET_CROSS_REFERENCE_SCHEMA;
    }
    throw new IllegalArgumentException("not a metadata command: " + command.getClass());
  }
}
