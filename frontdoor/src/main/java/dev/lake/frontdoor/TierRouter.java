package dev.lake.frontdoor;

import static java.util.Objects.requireNonNull;

import dev.lake.core.ErrorCode;
import dev.lake.core.LakeException;
import dev.lake.core.Principal;
import java.util.List;
import java.util.Optional;
import org.apache.arrow.flight.CancelFlightInfoRequest;
import org.apache.arrow.flight.CancelStatus;
import org.apache.arrow.flight.FlightDescriptor;
import org.apache.arrow.flight.FlightEndpoint;
import org.apache.arrow.flight.FlightInfo;
import org.apache.arrow.flight.FlightProducer.CallContext;
import org.apache.arrow.flight.FlightProducer.ServerStreamListener;
import org.apache.arrow.flight.PollInfo;
import org.apache.arrow.flight.Ticket;

/**
 * Which tier answers a call that either could: the durable tier ({@link DurableHandler}) for
 * PollFlightInfo, raw sealed result-part tickets, job cancels and GetFlightInfo with {@code
 * x-lake-durable: true}; the interactive tier ({@link StatementHandler}) for every other statement.
 * Without the durable tier, calls only it can answer fail UNSUPPORTED and {@code x-lake-durable} is
 * ignored.
 */
final class TierRouter {
  private final StatementHandler statements;
  private final Optional<DurableHandler> durable;

  TierRouter(StatementHandler statements, Optional<DurableHandler> durable) {
    this.statements = requireNonNull(statements, "statements is null");
    this.durable = requireNonNull(durable, "durable is null");
  }

  /** PollFlightInfo (not routed by FlightSqlProducer): always the durable tier. */
  PollInfo poll(CallContext context, Principal principal, FlightDescriptor descriptor) {
    return durable()
        .poll(
            principal,
            descriptor,
            RequestHeaders.submissionId(context),
            RequestHeaders.resultFormat(context),
            CallNotes.of(context));
  }

  /**
   * Streams {@code ticket} when it is a raw sealed envelope ({@link DurableHandler#isSealed}), a
   * durable result part, and says so; false for anything else (a Flight SQL ticket).
   */
  boolean streamPart(
      CallContext context, Principal principal, Ticket ticket, ServerStreamListener listener) {
    if (!DurableHandler.isSealed(ticket.getBytes())) {
      return false;
    }
    durable().stream(principal, ticket.getBytes(), listener, CallNotes.of(context));
    return true;
  }

  /**
   * GetFlightInfo of a statement: the interactive tier, or the durable one when the tier is on and
   * the call sent {@code x-lake-durable: true}.
   */
  FlightInfo flightInfo(
      CallContext context,
      Principal principal,
      String sql,
      List<Object> parameters,
      FlightDescriptor descriptor) {
    if (durable.isPresent() && RequestHeaders.durableRequested(context)) {
      return durable
          .get()
          .flightInfo(
              principal,
              sql,
              parameters,
              RequestHeaders.submissionId(context),
              RequestHeaders.resultFormat(context),
              CallNotes.of(context));
    }
    statements.deadline(context); // a bad x-lake-timeout-ms fails before planning
    return statements.flightInfo(principal, sql, parameters, descriptor, CallNotes.of(context));
  }

  /**
   * CancelFlightInfo: a job's FlightInfo cancels the job; otherwise this replica's running streams
   * of the FlightInfo's statement tickets.
   */
  CancelStatus cancel(Principal principal, CancelFlightInfoRequest request) {
    Optional<CancelStatus> job = durable.flatMap(d -> d.cancel(principal, request.getInfo()));
    if (job.isPresent()) {
      return job.get();
    }
    int cancelled = 0;
    for (FlightEndpoint endpoint : request.getInfo().getEndpoints()) {
      cancelled +=
          statements.cancel(principal, FlightTickets.statementHandle(endpoint.getTicket()));
    }
    return cancelled > 0 ? CancelStatus.CANCELLED : CancelStatus.NOT_CANCELLABLE;
  }

  private DurableHandler durable() {
    return durable.orElseThrow(
        () ->
            new LakeException(
                ErrorCode.UNSUPPORTED,
                "The durable result tier is not enabled on this server; use GetFlightInfo"));
  }
}
