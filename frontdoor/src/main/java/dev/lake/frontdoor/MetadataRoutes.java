package dev.lake.frontdoor;

import static java.util.Objects.requireNonNull;

import com.google.protobuf.Any;
import dev.lake.core.Principal;
import java.util.List;
import java.util.Optional;
import org.apache.arrow.flight.FlightDescriptor;
import org.apache.arrow.flight.FlightEndpoint;
import org.apache.arrow.flight.FlightInfo;
import org.apache.arrow.flight.Ticket;
import org.apache.arrow.flight.sql.FlightSqlProducer;
import org.apache.arrow.flight.sql.SqlInfoBuilder;
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
 * The metadata half of lake's Flight SQL surface: catalogs, schemas, tables, table types, SQL info,
 * XDBC type info and the (empty) key listings, routed to {@link MetadataHandler}. A metadata
 * FlightInfo's ticket is the command itself. Errors are mapped by {@link LakeFlightSqlProducer}'s
 * edge wrappers, which every RPC passes.
 */
abstract class MetadataRoutes implements FlightSqlProducer {
  final MetadataHandler metadata;
  final SqlInfoBuilder sqlInfo;

  MetadataRoutes(MetadataHandler metadata, SqlInfoBuilder sqlInfo) {
    this.metadata = requireNonNull(metadata, "metadata is null");
    this.sqlInfo = requireNonNull(sqlInfo, "sqlInfo is null");
  }

  // Flight SQL's own command dispatch (the interface defaults), for the edge wrappers of the
  // subclass: an interface's default can only be called as super from a direct implementor.

  final FlightInfo routeFlightInfo(CallContext context, FlightDescriptor descriptor) {
    return FlightSqlProducer.super.getFlightInfo(context, descriptor);
  }

  final org.apache.arrow.flight.SchemaResult routeSchema(
      CallContext context, FlightDescriptor descriptor) {
    return FlightSqlProducer.super.getSchema(context, descriptor);
  }

  final void routeStream(CallContext context, Ticket ticket, ServerStreamListener listener) {
    FlightSqlProducer.super.getStream(context, ticket, listener);
  }

  final Runnable routePut(
      CallContext context,
      org.apache.arrow.flight.FlightStream stream,
      StreamListener<org.apache.arrow.flight.PutResult> ackStream) {
    return FlightSqlProducer.super.acceptPut(context, stream, ackStream);
  }

  final void routeAction(
      CallContext context,
      org.apache.arrow.flight.Action action,
      StreamListener<org.apache.arrow.flight.Result> listener) {
    FlightSqlProducer.super.doAction(context, action, listener);
  }

  static Principal principal(CallContext context) {
    return AuthMiddleware.principal(context);
  }

  @Override
  public FlightInfo getFlightInfoSqlInfo(
      CommandGetSqlInfo request, CallContext context, FlightDescriptor descriptor) {
    return metadataInfo(request, descriptor, Schemas.GET_SQL_INFO_SCHEMA);
  }

  @Override
  public void getStreamSqlInfo(
      CommandGetSqlInfo command, CallContext context, ServerStreamListener listener) {
    sqlInfo.send(command.getInfoList(), listener);
  }

  @Override
  public FlightInfo getFlightInfoTypeInfo(
      CommandGetXdbcTypeInfo request, CallContext context, FlightDescriptor descriptor) {
    return metadataInfo(request, descriptor, Schemas.GET_TYPE_INFO_SCHEMA);
  }

  @Override
  public void getStreamTypeInfo(
      CommandGetXdbcTypeInfo request, CallContext context, ServerStreamListener listener) {
    metadata.typeInfo(
        request.hasDataType() ? Optional.of(request.getDataType()) : Optional.empty(), listener);
  }

  @Override
  public FlightInfo getFlightInfoCatalogs(
      CommandGetCatalogs request, CallContext context, FlightDescriptor descriptor) {
    return metadataInfo(request, descriptor, Schemas.GET_CATALOGS_SCHEMA);
  }

  @Override
  public void getStreamCatalogs(CallContext context, ServerStreamListener listener) {
    metadata.catalogs(principal(context), listener);
  }

  @Override
  public FlightInfo getFlightInfoSchemas(
      CommandGetDbSchemas request, CallContext context, FlightDescriptor descriptor) {
    return metadataInfo(request, descriptor, Schemas.GET_SCHEMAS_SCHEMA);
  }

  @Override
  public void getStreamSchemas(
      CommandGetDbSchemas command, CallContext context, ServerStreamListener listener) {
    metadata.schemas(principal(context), command, listener);
  }

  @Override
  public FlightInfo getFlightInfoTables(
      CommandGetTables request, CallContext context, FlightDescriptor descriptor) {
    return metadataInfo(
        request,
        descriptor,
        request.getIncludeSchema()
            ? Schemas.GET_TABLES_SCHEMA
            : Schemas.GET_TABLES_SCHEMA_NO_SCHEMA);
  }

  @Override
  public void getStreamTables(
      CommandGetTables command, CallContext context, ServerStreamListener listener) {
    metadata.tables(principal(context), command, listener);
  }

  @Override
  public FlightInfo getFlightInfoTableTypes(
      CommandGetTableTypes request, CallContext context, FlightDescriptor descriptor) {
    return metadataInfo(request, descriptor, Schemas.GET_TABLE_TYPES_SCHEMA);
  }

  @Override
  public void getStreamTableTypes(CallContext context, ServerStreamListener listener) {
    metadata.tableTypes(listener);
  }

  @Override
  public FlightInfo getFlightInfoPrimaryKeys(
      CommandGetPrimaryKeys request, CallContext context, FlightDescriptor descriptor) {
    return metadataInfo(request, descriptor, Schemas.GET_PRIMARY_KEYS_SCHEMA);
  }

  @Override
  public void getStreamPrimaryKeys(
      CommandGetPrimaryKeys command, CallContext context, ServerStreamListener listener) {
    metadata.empty(Schemas.GET_PRIMARY_KEYS_SCHEMA, listener);
  }

  @Override
  public FlightInfo getFlightInfoExportedKeys(
      CommandGetExportedKeys request, CallContext context, FlightDescriptor descriptor) {
    return metadataInfo(request, descriptor, Schemas.GET_EXPORTED_KEYS_SCHEMA);
  }

  @Override
  public FlightInfo getFlightInfoImportedKeys(
      CommandGetImportedKeys request, CallContext context, FlightDescriptor descriptor) {
    return metadataInfo(request, descriptor, Schemas.GET_IMPORTED_KEYS_SCHEMA);
  }

  @Override
  public FlightInfo getFlightInfoCrossReference(
      CommandGetCrossReference request, CallContext context, FlightDescriptor descriptor) {
    return metadataInfo(request, descriptor, Schemas.GET_CROSS_REFERENCE_SCHEMA);
  }

  @Override
  public void getStreamExportedKeys(
      CommandGetExportedKeys command, CallContext context, ServerStreamListener listener) {
    metadata.empty(Schemas.GET_EXPORTED_KEYS_SCHEMA, listener);
  }

  @Override
  public void getStreamImportedKeys(
      CommandGetImportedKeys command, CallContext context, ServerStreamListener listener) {
    metadata.empty(Schemas.GET_IMPORTED_KEYS_SCHEMA, listener);
  }

  @Override
  public void getStreamCrossReference(
      CommandGetCrossReference command, CallContext context, ServerStreamListener listener) {
    metadata.empty(Schemas.GET_CROSS_REFERENCE_SCHEMA, listener);
  }

  /** A metadata FlightInfo: the command itself is the ticket (it holds no secret). */
  static FlightInfo metadataInfo(
      com.google.protobuf.Message command, FlightDescriptor descriptor, Schema schema) {
    Ticket ticket = new Ticket(Any.pack(command).toByteArray());
    return new FlightInfo(schema, descriptor, List.of(new FlightEndpoint(ticket)), -1, -1);
  }
}
