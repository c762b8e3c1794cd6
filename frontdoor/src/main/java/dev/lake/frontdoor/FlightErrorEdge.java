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
 * The RPC edge in front of the producer: every Flight RPC passes through here, so no exception
 * escapes unmapped; each failure becomes a Flight status through {@link FlightErrors}, thrown for
 * unary calls and sent on the listener for streaming ones. It routes nothing; routing is {@link
 * LakeFlightSqlProducer}'s. DoExchange stays UNIMPLEMENTED (the {@link FlightProducer} default).
 */
final class FlightErrorEdge implements FlightProducer {
  private final FlightProducer producer;

  FlightErrorEdge(FlightProducer producer) {
    this.producer = requireNonNull(producer, "producer is null");
  }

  @Override
  public FlightInfo getFlightInfo(CallContext context, FlightDescriptor descriptor) {
    try {
      return producer.getFlightInfo(context, descriptor);
    } catch (RuntimeException e) {
      throw FlightErrors.toFlight(e);
    }
  }

  @Override
  public PollInfo pollFlightInfo(CallContext context, FlightDescriptor descriptor) {
    try {
      return producer.pollFlightInfo(context, descriptor);
    } catch (RuntimeException e) {
      throw FlightErrors.toFlight(e);
    }
  }

  @Override
  public SchemaResult getSchema(CallContext context, FlightDescriptor descriptor) {
    try {
      return producer.getSchema(context, descriptor);
    } catch (RuntimeException e) {
      throw FlightErrors.toFlight(e);
    }
  }

  @Override
  public void getStream(CallContext context, Ticket ticket, ServerStreamListener listener) {
    try {
      producer.getStream(context, ticket, listener);
    } catch (RuntimeException e) {
      listener.error(FlightErrors.toFlight(e));
    }
  }

  @Override
  public Runnable acceptPut(
      CallContext context, FlightStream flightStream, StreamListener<PutResult> ackStream) {
    try {
      return producer.acceptPut(context, flightStream, ackStream);
    } catch (RuntimeException e) {
      throw FlightErrors.toFlight(e);
    }
  }

  @Override
  public void doAction(CallContext context, Action action, StreamListener<Result> listener) {
    try {
      producer.doAction(context, action, listener);
    } catch (RuntimeException e) {
      listener.onError(FlightErrors.toFlight(e));
    }
  }

  @Override
  public void listActions(CallContext context, StreamListener<ActionType> listener) {
    try {
      producer.listActions(context, listener);
    } catch (RuntimeException e) {
      listener.onError(FlightErrors.toFlight(e));
    }
  }

  @Override
  public void listFlights(
      CallContext context, Criteria criteria, StreamListener<FlightInfo> listener) {
    try {
      producer.listFlights(context, criteria, listener);
    } catch (RuntimeException e) {
      listener.onError(FlightErrors.toFlight(e));
    }
  }
}
