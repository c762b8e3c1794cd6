package dev.lake.core.ticket;

/** What a sealed envelope grants; a ticket of one kind is never accepted as another. */
public enum TicketKind {
  /** An interactive statement: SQL plus its sealed snapshot set, redeemed by DoGet. */
  STATEMENT(1),
  /** A durable job capability: the poll descriptor of PollFlightInfo. */
  JOB(2),
  /** One part of a durable result, redeemed by DoGet. */
  RESULT_PART(3),
  /** A prepared statement handle. */
  PREPARED(4),
  /** A durable job's statement, stored sealed in its job record and opened by the worker. */
  JOB_ENVELOPE(5);

  private final int wire;

  TicketKind(int wire) {
    this.wire = wire;
  }

  int wire() {
    return wire;
  }

  static TicketKind fromWire(int b) {
    for (TicketKind k : values()) {
      if (k.wire == b) {
        return k;
      }
    }
    return null;
  }
}
