package dev.lake.frontdoor;

import static java.util.Objects.requireNonNull;

import org.apache.arrow.flight.Action;
import org.apache.arrow.flight.ActionType;
import org.apache.arrow.flight.Criteria;
import org.apache.arrow.flight.FlightDescriptor;
import org.apache.arrow.flight.FlightInfo;
import org.apache.arrow.flight.FlightProducer;
import org.apache.arrow.flight.FlightStream;
import org.apache.arrow.flight.PollInfo;
import org.apache.arrow.flight.PutResult;
import org.apache.arrow.flight.Result;
import org.apache.arrow.flight.SchemaResult;
import org.apache.arrow.flight.Ticket;

/**
 * Wraps the Flight SQL producer for the audit trail without changing what it does: each call's
 * principal is noted on the call's {@link AuditMiddleware}, and DoGet's listener counts the rows
 * and Arrow buffer bytes of every batch it sends.
 */
final class AuditingProducer implements FlightProducer {
  private final FlightProducer delegate;

  AuditingProducer(FlightProducer delegate) {
    this.delegate = requireNonNull(delegate, "delegate is null");
  }

  private static void notePrincipal(CallContext context) {
    AuditMiddleware.of(context)
        .ifPresent(
            audit -> {
              if (context.getMiddleware(AuthMiddleware.KEY) != null) {
                audit.principal(AuthMiddleware.principal(context));
              }
            });
  }

  @Override
  public void getStream(CallContext context, Ticket ticket, ServerStreamListener listener) {
    notePrincipal(context);
    ServerStreamListener counted =
        AuditMiddleware.of(context)
            .<ServerStreamListener>map(audit -> new Counting(listener, audit))
            .orElse(listener);
    delegate.getStream(context, ticket, counted);
  }

  @Override
  public void listFlights(
      CallContext context, Criteria criteria, StreamListener<FlightInfo> listener) {
    notePrincipal(context);
    delegate.listFlights(context, criteria, listener);
  }

  @Override
  public FlightInfo getFlightInfo(CallContext context, FlightDescriptor descriptor) {
    notePrincipal(context);
    return delegate.getFlightInfo(context, descriptor);
  }

  @Override
  public PollInfo pollFlightInfo(CallContext context, FlightDescriptor descriptor) {
    notePrincipal(context);
    return delegate.pollFlightInfo(context, descriptor);
  }

  @Override
  public SchemaResult getSchema(CallContext context, FlightDescriptor descriptor) {
    notePrincipal(context);
    return delegate.getSchema(context, descriptor);
  }

  @Override
  public Runnable acceptPut(
      CallContext context, FlightStream flightStream, StreamListener<PutResult> ackStream) {
    notePrincipal(context);
    return delegate.acceptPut(context, flightStream, ackStream);
  }

  @Override
  public void doExchange(CallContext context, FlightStream reader, ServerStreamListener writer) {
    notePrincipal(context);
    delegate.doExchange(context, reader, writer);
  }

  @Override
  public void doAction(CallContext context, Action action, StreamListener<Result> listener) {
    notePrincipal(context);
    delegate.doAction(context, action, listener);
  }

  @Override
  public void listActions(CallContext context, StreamListener<ActionType> listener) {
    notePrincipal(context);
    delegate.listActions(context, listener);
  }

  /** Counts what passes through; every other call goes to the real listener unchanged. */
  private static final class Counting extends MeteringStreamListener {
    private final AuditMiddleware audit;

    Counting(ServerStreamListener delegate, AuditMiddleware audit) {
      super(delegate);
      this.audit = audit;
    }

    @Override
    void batch(int rows, long bytes) {
      audit.streamed(rows, bytes);
    }
  }
}
