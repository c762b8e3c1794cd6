package dev.lake.frontdoor;

import com.google.protobuf.Any;
import com.google.protobuf.InvalidProtocolBufferException;
import dev.lake.core.ErrorCode;
import dev.lake.core.LakeException;
import org.apache.arrow.flight.Ticket;
import org.apache.arrow.flight.sql.impl.FlightSql.TicketStatementQuery;

/** Decoding of Flight ticket bytes at the edge; anything unrecognized fails as TICKET_INVALID. */
final class FlightTickets {
  private FlightTickets() {}

  /** A ticket as a protobuf Any, failing closed as TICKET_INVALID. */
  static Any parse(Ticket ticket) {
    try {
      return Any.parseFrom(ticket.getBytes());
    } catch (InvalidProtocolBufferException e) {
      throw new LakeException(ErrorCode.TICKET_INVALID, "Ticket is not a lake ticket");
    }
  }

  /** The sealed statement inside an interactive endpoint's ticket, failing closed. */
  static byte[] statementHandle(Ticket ticket) {
    Any any = parse(ticket);
    try {
      if (any.is(TicketStatementQuery.class)) {
        return any.unpack(TicketStatementQuery.class).getStatementHandle().toByteArray();
      }
    } catch (InvalidProtocolBufferException e) {
      // falls through to the same failure as a foreign ticket
    }
    throw new LakeException(ErrorCode.TICKET_INVALID, "Ticket is not a lake ticket");
  }
}
