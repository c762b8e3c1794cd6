package dev.lake.frontdoor;

import dev.lake.core.ErrorCode;
import dev.lake.core.LakeException;
import java.util.UUID;
import org.apache.arrow.flight.CallStatus;
import org.apache.arrow.flight.ErrorFlightMetadata;
import org.apache.arrow.flight.FlightRuntimeException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The one place where lake errors become Flight statuses. Every producer entry point funnels its
 * failures through {@link #toFlight(Throwable)}: a {@link LakeException} keeps its (client-safe)
 * message under the status of its code; anything unexpected becomes INTERNAL with a generic message
 * and a reference id, while the details (stack trace, locations) stay in the server log.
 *
 * <p>Arrow Java's {@link org.apache.arrow.flight.FlightStatusCode} has no FAILED_PRECONDITION, so a
 * sealed snapshot that is gone ({@link ErrorCode#SNAPSHOT_GONE}) maps to NOT_FOUND; its message
 * names the version that is no longer available, which tells it apart from a missing table.
 *
 * <p>Every error a client receives also carries its {@link ErrorCode} name under the metadata key
 * {@value #ERROR_CODE_KEY} (gRPC trailers), so clients tell e.g. SNAPSHOT_GONE from TABLE_NOT_FOUND
 * without parsing the text.
 */
final class FlightErrors {
  private static final Logger LOG = LoggerFactory.getLogger(FlightErrors.class);

  /** The Flight error metadata key holding the {@link ErrorCode} name of every lake error. */
  static final String ERROR_CODE_KEY = "x-lake-error-code";

  private FlightErrors() {}

  /** The Flight status of {@code code}; total over {@link ErrorCode}. */
  static CallStatus status(ErrorCode code) {
    return switch (code) {
      case TABLE_NOT_FOUND, NOT_FOUND, SNAPSHOT_GONE -> CallStatus.NOT_FOUND;
      case INVALID_SQL, SQL_NOT_ALLOWED, QUERY_FAILED, INVALID_ARGUMENT ->
          CallStatus.INVALID_ARGUMENT;
      case UNAUTHENTICATED, TICKET_INVALID, TICKET_EXPIRED -> CallStatus.UNAUTHENTICATED;
      case PERMISSION_DENIED, TICKET_FOREIGN -> CallStatus.UNAUTHORIZED;
      case UNSUPPORTED -> CallStatus.UNIMPLEMENTED;
      case RESOURCE_EXHAUSTED -> CallStatus.RESOURCE_EXHAUSTED;
      case OVERLOADED, EXTERNAL_UNAVAILABLE -> CallStatus.UNAVAILABLE;
      case CANCELLED -> CallStatus.CANCELLED;
      case DEADLINE_EXCEEDED -> CallStatus.TIMED_OUT;
      case INTERNAL -> CallStatus.INTERNAL;
    };
  }

  /** Converts any failure into a client-safe Flight exception. */
  static FlightRuntimeException toFlight(Throwable error) {
    if (error instanceof FlightRuntimeException flight) {
      return flight;
    }
    if (error instanceof LakeException lake) {
      if (lake.code() == ErrorCode.INTERNAL) {
        return internal(lake);
      }
      if (lake.code().kind() == ErrorCode.Kind.EXTERNAL && lake.getCause() != null) {
        LOG.warn("dependency failure: {}", lake.getMessage(), lake.getCause());
      }
      return error(lake.code(), lake.getMessage());
    }
    return internal(error);
  }

  /** The Flight exception for {@code code} with a client-safe {@code message}. */
  static FlightRuntimeException error(ErrorCode code, String message) {
    return status(code).withDescription(message).withMetadata(metadata(code)).toRuntimeException();
  }

  private static ErrorFlightMetadata metadata(ErrorCode code) {
    ErrorFlightMetadata metadata = new ErrorFlightMetadata();
    metadata.insert(ERROR_CODE_KEY, code.name());
    return metadata;
  }

  private static FlightRuntimeException internal(Throwable error) {
    String ref = UUID.randomUUID().toString();
    LOG.error("internal error ref={}", ref, error);
    return error(
        ErrorCode.INTERNAL, "Internal error in lake (reference " + ref + "); see the server log");
  }

  /** An UNIMPLEMENTED status for an RPC or command lake does not offer. */
  static FlightRuntimeException unimplemented(String what) {
    return error(
        ErrorCode.UNSUPPORTED, what + " is not supported: lake is a read-only query service");
  }
}
