package dev.lake.core;

import static java.util.Objects.requireNonNull;

/**
 * The one error taxonomy of lake. Every failure a client can see carries one of these codes; the
 * front door maps each code to exactly one Flight status in a single place ({@code FlightErrors}).
 */
public enum ErrorCode {
  /** The SQL text does not parse, or is empty, too long, or holds more than one statement. */
  INVALID_SQL(Kind.USER),
  /** The statement is not a read-only SELECT/EXPLAIN, or uses a forbidden construct. */
  SQL_NOT_ALLOWED(Kind.USER),
  /** The statement failed to bind or run for a reason in the query itself (type error, ...). */
  QUERY_FAILED(Kind.USER),
  /** The table does not exist or the principal may not read it: the two are indistinguishable. */
  TABLE_NOT_FOUND(Kind.USER),
  /** A bad or missing argument of an RPC other than the SQL text. */
  INVALID_ARGUMENT(Kind.USER),
  /** No or unknown credentials. */
  UNAUTHENTICATED(Kind.USER),
  /** Authenticated, but the caller may not do this. */
  PERMISSION_DENIED(Kind.USER),
  /** A ticket that is tampered, truncated, of an unknown version or sealed with an unknown key. */
  TICKET_INVALID(Kind.USER),
  /** A ticket past its expiry. */
  TICKET_EXPIRED(Kind.USER),
  /** A valid ticket presented by a principal, tenant or audience other than the one it names. */
  TICKET_FOREIGN(Kind.USER),
  /** A sealed snapshot is no longer readable (retention removed it or the table was replaced). */
  SNAPSHOT_GONE(Kind.USER),
  /** A feature lake does not implement (an RPC, a table feature it cannot read correctly). */
  UNSUPPORTED(Kind.USER),
  /** A per-query or per-tenant bound was exceeded (rows, bytes, memory, concurrency queue). */
  RESOURCE_EXHAUSTED(Kind.USER),
  /** The query was cancelled. */
  CANCELLED(Kind.USER),
  /** The query ran past its deadline. */
  DEADLINE_EXCEEDED(Kind.USER),
  /** A job or result that does not exist, or belongs to someone else. */
  NOT_FOUND(Kind.USER),
  /** The server is busy; retry later. */
  OVERLOADED(Kind.EXTERNAL),
  /** A dependency (object store, catalog, job store, key service) failed or timed out. */
  EXTERNAL_UNAVAILABLE(Kind.EXTERNAL),
  /** A bug or broken invariant in lake. */
  INTERNAL(Kind.INTERNAL);

  /** Who has to act: the user (fix the request), an operator (a dependency), or lake's authors. */
  public enum Kind {
    USER,
    EXTERNAL,
    INTERNAL
  }

  private final Kind kind;

  ErrorCode(Kind kind) {
    this.kind = requireNonNull(kind, "kind is null");
  }

  public Kind kind() {
    return kind;
  }
}
