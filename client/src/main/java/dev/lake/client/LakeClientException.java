package dev.lake.client;

import static java.util.Objects.requireNonNull;

import java.util.Optional;
import org.apache.arrow.flight.CallStatus;
import org.apache.arrow.flight.FlightRuntimeException;
import org.apache.arrow.flight.FlightStatusCode;

/**
 * A call to lake failed. Carries the Flight status and, where the server sent it, lake's own error
 * code ({@code INVALID_SQL}, {@code TABLE_NOT_FOUND}, …) from the error metadata; the message is
 * the server's client-safe description.
 */
public final class LakeClientException extends RuntimeException {
  private static final long serialVersionUID = 1L;

  /** The error metadata key under which lake sends its error code. */
  static final String ERROR_CODE_KEY = "x-lake-error-code";

  private final FlightStatusCode status;
  private final String errorCode;

  LakeClientException(FlightStatusCode status, Optional<String> errorCode, String message) {
    super(requireNonNull(message, "message is null"));
    this.status = requireNonNull(status, "status is null");
    this.errorCode = requireNonNull(errorCode, "errorCode is null").orElse(null);
  }

  /** Translates a Flight failure; the status is kept, the error code read from the metadata. */
  static LakeClientException from(FlightRuntimeException e) {
    CallStatus s = e.status();
    Optional<String> code = Optional.empty();
    if (s.metadata() != null && s.metadata().containsKey(ERROR_CODE_KEY)) {
      code = Optional.ofNullable(s.metadata().get(ERROR_CODE_KEY));
    }
    String description =
        s.description() == null || s.description().isBlank() ? "" : s.description();
    LakeClientException out = new LakeClientException(s.code(), code, oneLine(description));
    out.initCause(e);
    return out;
  }

  /** The client itself stopped the call ({@link ResultReader#cancel()}, a user's Ctrl-C). */
  public static LakeClientException cancelled(String message) {
    return new LakeClientException(FlightStatusCode.CANCELLED, Optional.empty(), message);
  }

  /** The Flight status of the failure, e.g. {@code INVALID_ARGUMENT}. */
  public FlightStatusCode status() {
    return status;
  }

  /** lake's error code when the server sent one (e.g. {@code INVALID_SQL}). */
  public Optional<String> errorCode() {
    return Optional.ofNullable(errorCode);
  }

  /** One line for a terminal: status, lake's code when known, and the server's message. */
  public String describe() {
    StringBuilder b = new StringBuilder(status.name());
    if (errorCode != null && !errorCode.equals(status.name())) {
      b.append(" (").append(errorCode).append(')');
    }
    if (!getMessage().isEmpty()) {
      b.append(": ").append(getMessage());
    }
    return b.toString();
  }

  private static String oneLine(String text) {
    return text.replaceAll("\\s*[\\r\\n]+\\s*", " ").strip();
  }
}
