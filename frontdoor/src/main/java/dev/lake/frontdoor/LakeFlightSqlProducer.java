package dev.lake.frontdoor;

import static java.util.Objects.requireNonNull;

import com.google.protobuf.Any;
import dev.lake.core.ErrorCode;
import dev.lake.core.LakeException;
import dev.lake.core.Principal;
import java.util.List;
import java.util.Optional;
import org.apache.arrow.flight.CancelFlightInfoRequest;
import org.apache.arrow.flight.CancelStatus;
import org.apache.arrow.flight.Criteria;
import org.apache.arrow.flight.FlightDescriptor;
import org.apache.arrow.flight.FlightInfo;
import org.apache.arrow.flight.FlightStream;
import org.apache.arrow.flight.PollInfo;
import org.apache.arrow.flight.PutResult;
import org.apache.arrow.flight.Result;
import org.apache.arrow.flight.SchemaResult;
import org.apache.arrow.flight.Ticket;
import org.apache.arrow.flight.sql.FlightSqlProducer;
import org.apache.arrow.flight.sql.SqlInfoBuilder;
import org.apache.arrow.flight.sql.impl.FlightSql;
import org.apache.arrow.flight.sql.impl.FlightSql.ActionClosePreparedStatementRequest;
import org.apache.arrow.flight.sql.impl.FlightSql.ActionCreatePreparedStatementRequest;
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
import org.apache.arrow.flight.sql.impl.FlightSql.CommandPreparedStatementQuery;
import org.apache.arrow.flight.sql.impl.FlightSql.CommandPreparedStatementUpdate;
import org.apache.arrow.flight.sql.impl.FlightSql.CommandStatementQuery;
import org.apache.arrow.flight.sql.impl.FlightSql.CommandStatementUpdate;
import org.apache.arrow.flight.sql.impl.FlightSql.TicketStatementQuery;
import org.apache.arrow.memory.BufferAllocator;

/**
 * The Flight SQL surface of lake: the one producer, a routing table by composition. It
 * authenticates nothing itself (the middleware did); every Flight SQL command is one delegation to
 * {@link StatementHandler} (statements, prepared statements), {@link MetadataHandler} with {@link
 * MetadataInfo} (catalog browsing) or {@link TierRouter} (calls either tier could answer: statement
 * GetFlightInfo, PollFlightInfo, result parts, cancels). Flight SQL's own command decoding is the
 * {@link FlightSqlProducer} defaults; {@link FlightErrorEdge} wraps this producer and maps every
 * failure through {@link FlightErrors}, so methods here simply throw. Commands that write, transact
 * or use Substrait are UNIMPLEMENTED.
 */
final class LakeFlightSqlProducer implements FlightSqlProducer {
  private final StatementHandler statements;
  private final MetadataHandler metadata;
  private final SqlInfoBuilder sqlInfo;
  private final BufferAllocator allocator;
  private final TierRouter tiers;

  LakeFlightSqlProducer(
      StatementHandler statements,
      MetadataHandler metadata,
      SqlInfoBuilder sqlInfo,
      BufferAllocator allocator,
      Optional<DurableHandler> durable) {
    this.statements = requireNonNull(statements, "statements is null");
    this.metadata = requireNonNull(metadata, "metadata is null");
    this.sqlInfo = requireNonNull(sqlInfo, "sqlInfo is null");
    this.allocator = requireNonNull(allocator, "allocator is null");
    this.tiers = new TierRouter(statements, durable);
  }

  // ---- the two RPCs Flight SQL does not route: raw sealed envelopes of the durable tier ----

  /** PollFlightInfo (not routed by FlightSqlProducer): the durable tier, see DurableHandler. */
  @Override
  public PollInfo pollFlightInfo(CallContext context, FlightDescriptor descriptor) {
    return tiers.poll(context, principal(context), descriptor);
  }

  /**
   * DoGet: a raw sealed envelope ({@link DurableHandler#isSealed}) is a durable result part;
   * anything else must be a protobuf Any (a statement ticket or metadata command), decoded by
   * Flight SQL. Both fail closed on anything they do not recognize.
   */
  @Override
  public void getStream(CallContext context, Ticket ticket, ServerStreamListener listener) {
    if (tiers.streamPart(context, principal(context), ticket, listener)) {
      return;
    }
    FlightTickets.parse(ticket);
    FlightSqlProducer.super.getStream(context, ticket, listener);
  }

  @Override
  public void listFlights(
      CallContext context, Criteria criteria, StreamListener<FlightInfo> listener) {
    throw FlightErrors.unimplemented("ListFlights");
  }

  // ---- statements ----

  @Override
  public FlightInfo getFlightInfoStatement(
      CommandStatementQuery command, CallContext context, FlightDescriptor descriptor) {
    if (command.hasTransactionId()) {
      throw FlightErrors.unimplemented("Transactions");
    }
    return tiers.flightInfo(context, principal(context), command.getQuery(), List.of(), descriptor);
  }

  @Override
  public SchemaResult getSchemaStatement(
      CommandStatementQuery command, CallContext context, FlightDescriptor descriptor) {
    return new SchemaResult(
        statements.schema(principal(context), command.getQuery(), CallNotes.of(context)));
  }

  @Override
  public void getStreamStatement(
      TicketStatementQuery ticket, CallContext context, ServerStreamListener listener) {
    statements.stream(
        principal(context),
        ticket.getStatementHandle().toByteArray(),
        statements.deadline(context),
        listener,
        CallNotes.of(context));
  }

  @Override
  public void cancelFlightInfo(
      CancelFlightInfoRequest request, CallContext context, StreamListener<CancelStatus> listener) {
    listener.onNext(tiers.cancel(principal(context), request));
    listener.onCompleted();
  }

  // ---- prepared statements: the handle is a sealed ticket, never server state ----

  @Override
  public void createPreparedStatement(
      ActionCreatePreparedStatementRequest request,
      CallContext context,
      StreamListener<Result> listener) {
    if (request.hasTransactionId()) {
      throw FlightErrors.unimplemented("Transactions");
    }
    FlightSql.ActionCreatePreparedStatementResult result =
        statements.prepare(principal(context), request.getQuery(), CallNotes.of(context));
    listener.onNext(new Result(Any.pack(result).toByteArray()));
    listener.onCompleted();
  }

  /** Nothing to free: the handle holds everything. Succeeds for any handle, as drivers expect. */
  @Override
  public void closePreparedStatement(
      ActionClosePreparedStatementRequest request,
      CallContext context,
      StreamListener<Result> listener) {
    listener.onCompleted();
  }

  @Override
  public FlightInfo getFlightInfoPreparedStatement(
      CommandPreparedStatementQuery command, CallContext context, FlightDescriptor descriptor) {
    Principal principal = principal(context);
    PreparedHandle handle =
        statements.openPrepared(principal, command.getPreparedStatementHandle());
    return tiers.flightInfo(context, principal, handle.sql(), handle.parameters(), descriptor);
  }

  @Override
  public SchemaResult getSchemaPreparedStatement(
      CommandPreparedStatementQuery command, CallContext context, FlightDescriptor descriptor) {
    Principal principal = principal(context);
    PreparedHandle handle =
        statements.openPrepared(principal, command.getPreparedStatementHandle());
    return new SchemaResult(statements.schema(principal, handle.sql(), CallNotes.of(context)));
  }

  @Override
  public void getStreamPreparedStatement(
      CommandPreparedStatementQuery command, CallContext context, ServerStreamListener listener) {
    throw new LakeException(
        ErrorCode.INVALID_ARGUMENT,
        "Call GetFlightInfo on the prepared statement and redeem its ticket");
  }

  /** Parameter binding: the reply carries a new handle that holds the bound values. */
  @Override
  public Runnable acceptPutPreparedStatementQuery(
      CommandPreparedStatementQuery command,
      CallContext context,
      FlightStream flightStream,
      StreamListener<PutResult> ackStream) {
    Principal principal = principal(context);
    return () -> {
      try {
        List<Object> parameters = ParameterBinder.readOneRow(flightStream);
        byte[] handle =
            statements.bind(principal, command.getPreparedStatementHandle(), parameters);
        ParameterBinder.sendHandle(handle, allocator, ackStream);
        ackStream.onCompleted();
      } catch (RuntimeException e) {
        ackStream.onError(FlightErrors.toFlight(e));
      }
    };
  }

  @Override
  public Runnable acceptPutStatement(
      CommandStatementUpdate command,
      CallContext context,
      FlightStream flightStream,
      StreamListener<PutResult> ackStream) {
    throw FlightErrors.unimplemented("Updates (CommandStatementUpdate)");
  }

  @Override
  public Runnable acceptPutPreparedStatementUpdate(
      CommandPreparedStatementUpdate command,
      CallContext context,
      FlightStream flightStream,
      StreamListener<PutResult> ackStream) {
    throw FlightErrors.unimplemented("Updates (CommandPreparedStatementUpdate)");
  }

  // ---- metadata: FlightInfo from MetadataInfo, rows from MetadataHandler (caller's grants) ----

  @Override
  public FlightInfo getFlightInfoSqlInfo(
      CommandGetSqlInfo request, CallContext context, FlightDescriptor descriptor) {
    return MetadataInfo.of(request, descriptor);
  }

  @Override
  public void getStreamSqlInfo(
      CommandGetSqlInfo command, CallContext context, ServerStreamListener listener) {
    sqlInfo.send(command.getInfoList(), listener);
  }

  @Override
  public FlightInfo getFlightInfoTypeInfo(
      CommandGetXdbcTypeInfo request, CallContext context, FlightDescriptor descriptor) {
    return MetadataInfo.of(request, descriptor);
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
    return MetadataInfo.of(request, descriptor);
  }

  @Override
  public void getStreamCatalogs(CallContext context, ServerStreamListener listener) {
    metadata.catalogs(principal(context), listener);
  }

  @Override
  public FlightInfo getFlightInfoSchemas(
      CommandGetDbSchemas request, CallContext context, FlightDescriptor descriptor) {
    return MetadataInfo.of(request, descriptor);
  }

  @Override
  public void getStreamSchemas(
      CommandGetDbSchemas command, CallContext context, ServerStreamListener listener) {
    metadata.schemas(principal(context), command, listener);
  }

  @Override
  public FlightInfo getFlightInfoTables(
      CommandGetTables request, CallContext context, FlightDescriptor descriptor) {
    return MetadataInfo.of(request, descriptor);
  }

  @Override
  public void getStreamTables(
      CommandGetTables command, CallContext context, ServerStreamListener listener) {
    metadata.tables(principal(context), command, listener);
  }

  @Override
  public FlightInfo getFlightInfoTableTypes(
      CommandGetTableTypes request, CallContext context, FlightDescriptor descriptor) {
    return MetadataInfo.of(request, descriptor);
  }

  @Override
  public void getStreamTableTypes(CallContext context, ServerStreamListener listener) {
    metadata.tableTypes(listener);
  }

  @Override
  public FlightInfo getFlightInfoPrimaryKeys(
      CommandGetPrimaryKeys request, CallContext context, FlightDescriptor descriptor) {
    return MetadataInfo.of(request, descriptor);
  }

  @Override
  public void getStreamPrimaryKeys(
      CommandGetPrimaryKeys command, CallContext context, ServerStreamListener listener) {
    metadata.empty(Schemas.GET_PRIMARY_KEYS_SCHEMA, listener);
  }

  @Override
  public FlightInfo getFlightInfoExportedKeys(
      CommandGetExportedKeys request, CallContext context, FlightDescriptor descriptor) {
    return MetadataInfo.of(request, descriptor);
  }

  @Override
  public void getStreamExportedKeys(
      CommandGetExportedKeys command, CallContext context, ServerStreamListener listener) {
    metadata.empty(Schemas.GET_EXPORTED_KEYS_SCHEMA, listener);
  }

  @Override
  public FlightInfo getFlightInfoImportedKeys(
      CommandGetImportedKeys request, CallContext context, FlightDescriptor descriptor) {
    return MetadataInfo.of(request, descriptor);
  }

  @Override
  public void getStreamImportedKeys(
      CommandGetImportedKeys command, CallContext context, ServerStreamListener listener) {
    metadata.empty(Schemas.GET_IMPORTED_KEYS_SCHEMA, listener);
  }

  @Override
  public FlightInfo getFlightInfoCrossReference(
      CommandGetCrossReference request, CallContext context, FlightDescriptor descriptor) {
    return MetadataInfo.of(request, descriptor);
  }

  @Override
  public void getStreamCrossReference(
      CommandGetCrossReference command, CallContext context, ServerStreamListener listener) {
    metadata.empty(Schemas.GET_CROSS_REFERENCE_SCHEMA, listener);
  }

  @Override
  public void close() {}

  private static Principal principal(CallContext context) {
    return AuthMiddleware.principal(context);
  }
}
