package dev.lake.frontdoor;

import static java.util.Objects.requireNonNull;

import com.google.protobuf.Any;
import com.google.protobuf.ByteString;
import com.google.protobuf.InvalidProtocolBufferException;
import dev.lake.core.ErrorCode;
import dev.lake.core.LakeException;
import dev.lake.core.Principal;
import java.util.List;
import java.util.Optional;
import org.apache.arrow.flight.Action;
import org.apache.arrow.flight.CancelFlightInfoRequest;
import org.apache.arrow.flight.CancelStatus;
import org.apache.arrow.flight.Criteria;
import org.apache.arrow.flight.FlightDescriptor;
import org.apache.arrow.flight.FlightEndpoint;
import org.apache.arrow.flight.FlightInfo;
import org.apache.arrow.flight.FlightStream;
import org.apache.arrow.flight.PollInfo;
import org.apache.arrow.flight.PutResult;
import org.apache.arrow.flight.Result;
import org.apache.arrow.flight.SchemaResult;
import org.apache.arrow.flight.Ticket;
import org.apache.arrow.flight.sql.SqlInfoBuilder;
import org.apache.arrow.flight.sql.impl.FlightSql;
import org.apache.arrow.flight.sql.impl.FlightSql.ActionClosePreparedStatementRequest;
import org.apache.arrow.flight.sql.impl.FlightSql.ActionCreatePreparedStatementRequest;
import org.apache.arrow.flight.sql.impl.FlightSql.CommandPreparedStatementQuery;
import org.apache.arrow.flight.sql.impl.FlightSql.CommandPreparedStatementUpdate;
import org.apache.arrow.flight.sql.impl.FlightSql.CommandStatementQuery;
import org.apache.arrow.flight.sql.impl.FlightSql.CommandStatementUpdate;
import org.apache.arrow.flight.sql.impl.FlightSql.DoPutPreparedStatementResult;
import org.apache.arrow.flight.sql.impl.FlightSql.TicketStatementQuery;
import org.apache.arrow.memory.ArrowBuf;
import org.apache.arrow.memory.BufferAllocator;

/**
 * The Flight SQL surface of lake, kept thin: it authenticates nothing itself (the middleware did),
 * routes each command to {@link StatementHandler}, {@link MetadataHandler} or (PollFlightInfo,
 * result parts, job cancels, {@code x-lake-durable} GetFlightInfo) {@link DurableHandler}, and
 * funnels every failure through {@link FlightErrors}. Commands that write, transact or use
 * Substrait are UNIMPLEMENTED.
 */
final class LakeFlightSqlProducer extends MetadataRoutes {
  private final StatementHandler statements;
  private final BufferAllocator allocator;
  private final Optional<DurableHandler> durable;

  LakeFlightSqlProducer(
      StatementHandler statements,
      MetadataHandler metadata,
      SqlInfoBuilder sqlInfo,
      BufferAllocator allocator,
      Optional<DurableHandler> durable) {
    super(metadata, sqlInfo);
    this.statements = requireNonNull(statements, "statements is null");
    this.allocator = requireNonNull(allocator, "allocator is null");
    this.durable = requireNonNull(durable, "durable is null");
  }

  // ---- edges: every RPC passes one of these wrappers, so no exception escapes unmapped ----

  @Override
  public FlightInfo getFlightInfo(CallContext context, FlightDescriptor descriptor) {
    try {
      return routeFlightInfo(context, descriptor);
    } catch (RuntimeException e) {
      throw FlightErrors.toFlight(e);
    }
  }

  /** PollFlightInfo (not routed by FlightSqlProducer): the durable tier, see DurableHandler. */
  @Override
  public PollInfo pollFlightInfo(CallContext context, FlightDescriptor descriptor) {
    try {
      return durable().poll(principal(context), descriptor, AuthMiddleware.submissionId(context));
    } catch (RuntimeException e) {
      throw FlightErrors.toFlight(e);
    }
  }

  @Override
  public SchemaResult getSchema(CallContext context, FlightDescriptor descriptor) {
    try {
      return routeSchema(context, descriptor);
    } catch (RuntimeException e) {
      throw FlightErrors.toFlight(e);
    }
  }

  /**
   * DoGet: a raw sealed envelope ({@link DurableHandler#isSealed}) is a durable result part;
   * anything else must be a protobuf Any (a statement ticket or metadata command). Both fail closed
   * on anything they do not recognize.
   */
  @Override
  public void getStream(CallContext context, Ticket ticket, ServerStreamListener listener) {
    if (DurableHandler.isSealed(ticket.getBytes())) {
      try {
        durable().stream(principal(context), ticket.getBytes(), listener);
      } catch (RuntimeException e) {
        listener.error(FlightErrors.toFlight(e));
      }
      return;
    }
    try {
      Any.parseFrom(ticket.getBytes());
    } catch (InvalidProtocolBufferException e) {
      listener.error(
          FlightErrors.toFlight(
              new LakeException(ErrorCode.TICKET_INVALID, "Ticket is not a lake ticket")));
      return;
    }
    try {
      routeStream(context, ticket, listener);
    } catch (RuntimeException e) {
      listener.error(FlightErrors.toFlight(e));
    }
  }

  @Override
  public Runnable acceptPut(
      CallContext context, FlightStream flightStream, StreamListener<PutResult> ackStream) {
    try {
      return routePut(context, flightStream, ackStream);
    } catch (RuntimeException e) {
      throw FlightErrors.toFlight(e);
    }
  }

  @Override
  public void doAction(CallContext context, Action action, StreamListener<Result> listener) {
    try {
      routeAction(context, action, listener);
    } catch (RuntimeException e) {
      listener.onError(FlightErrors.toFlight(e));
    }
  }

  @Override
  public void listFlights(
      CallContext context, Criteria criteria, StreamListener<FlightInfo> listener) {
    listener.onError(FlightErrors.unimplemented("ListFlights"));
  }

  // ---- statements ----

  @Override
  public FlightInfo getFlightInfoStatement(
      CommandStatementQuery command, CallContext context, FlightDescriptor descriptor) {
    if (command.hasTransactionId()) {
      throw FlightErrors.unimplemented("Transactions");
    }
    if (durableRequested(context)) {
      return durable()
          .flightInfo(
              principal(context),
              command.getQuery(),
              List.of(),
              AuthMiddleware.submissionId(context));
    }
    return statements.flightInfo(principal(context), command.getQuery(), List.of(), descriptor);
  }

  @Override
  public SchemaResult getSchemaStatement(
      CommandStatementQuery command, CallContext context, FlightDescriptor descriptor) {
    return new SchemaResult(statements.schema(principal(context), command.getQuery()));
  }

  @Override
  public void getStreamStatement(
      TicketStatementQuery ticket, CallContext context, ServerStreamListener listener) {
    try {
      statements.stream(principal(context), ticket.getStatementHandle().toByteArray(), listener);
    } catch (RuntimeException e) {
      listener.error(FlightErrors.toFlight(e));
    }
  }

  @Override
  public void cancelFlightInfo(
      CancelFlightInfoRequest request, CallContext context, StreamListener<CancelStatus> listener) {
    try {
      Principal principal = principal(context);
      Optional<CancelStatus> job = durable.flatMap(d -> d.cancel(principal, request.getInfo()));
      if (job.isPresent()) {
        listener.onNext(job.get());
        listener.onCompleted();
        return;
      }
      int cancelled = 0;
      for (FlightEndpoint endpoint : request.getInfo().getEndpoints()) {
        Any any = Any.parseFrom(endpoint.getTicket().getBytes());
        if (!any.is(TicketStatementQuery.class)) {
          throw new LakeException(ErrorCode.TICKET_INVALID, "Ticket is not a lake ticket");
        }
        byte[] sealed = any.unpack(TicketStatementQuery.class).getStatementHandle().toByteArray();
        cancelled += statements.cancel(principal, sealed);
      }
      listener.onNext(cancelled > 0 ? CancelStatus.CANCELLED : CancelStatus.NOT_CANCELLABLE);
      listener.onCompleted();
    } catch (InvalidProtocolBufferException e) {
      listener.onError(
          FlightErrors.toFlight(
              new LakeException(ErrorCode.TICKET_INVALID, "Ticket is not a lake ticket")));
    } catch (RuntimeException e) {
      listener.onError(FlightErrors.toFlight(e));
    }
  }

  // ---- prepared statements: the handle is a sealed ticket, never server state ----

  @Override
  public void createPreparedStatement(
      ActionCreatePreparedStatementRequest request,
      CallContext context,
      StreamListener<Result> listener) {
    try {
      if (request.hasTransactionId()) {
        throw FlightErrors.unimplemented("Transactions");
      }
      FlightSql.ActionCreatePreparedStatementResult result =
          statements.prepare(principal(context), request.getQuery());
      listener.onNext(new Result(Any.pack(result).toByteArray()));
      listener.onCompleted();
    } catch (RuntimeException e) {
      listener.onError(FlightErrors.toFlight(e));
    }
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
    if (durableRequested(context)) {
      return durable()
          .flightInfo(
              principal, handle.sql(), handle.parameters(), AuthMiddleware.submissionId(context));
    }
    return statements.flightInfo(principal, handle.sql(), handle.parameters(), descriptor);
  }

  @Override
  public SchemaResult getSchemaPreparedStatement(
      CommandPreparedStatementQuery command, CallContext context, FlightDescriptor descriptor) {
    Principal principal = principal(context);
    PreparedHandle handle =
        statements.openPrepared(principal, command.getPreparedStatementHandle());
    return new SchemaResult(statements.schema(principal, handle.sql()));
  }

  @Override
  public void getStreamPreparedStatement(
      CommandPreparedStatementQuery command, CallContext context, ServerStreamListener listener) {
    listener.error(
        FlightErrors.toFlight(
            new LakeException(
                ErrorCode.INVALID_ARGUMENT,
                "Call GetFlightInfo on the prepared statement and redeem its ticket")));
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
        byte[] reply =
            DoPutPreparedStatementResult.newBuilder()
                .setPreparedStatementHandle(ByteString.copyFrom(handle))
                .build()
                .toByteArray();
        try (ArrowBuf buffer = allocator.buffer(reply.length)) {
          buffer.writeBytes(reply);
          ackStream.onNext(PutResult.metadata(buffer));
        }
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

  @Override
  public void close() {}

  /** Durable GetFlightInfo: the tier is on and the call sent {@code x-lake-durable: true}. */
  private boolean durableRequested(CallContext context) {
    return durable.isPresent() && AuthMiddleware.durableRequested(context);
  }

  private DurableHandler durable() {
    return durable.orElseThrow(
        () ->
            new LakeException(
                ErrorCode.UNSUPPORTED,
                "The durable result tier is not enabled on this server; use GetFlightInfo"));
  }
}
