package dev.lake.frontdoor;

import dev.lake.core.ErrorCode;
import dev.lake.core.LakeException;
import java.time.Duration;
import java.util.Optional;
import java.util.regex.Pattern;
import org.apache.arrow.flight.CallHeaders;
import org.apache.arrow.flight.CallInfo;
import org.apache.arrow.flight.CallStatus;
import org.apache.arrow.flight.FlightProducer.CallContext;
import org.apache.arrow.flight.FlightServerMiddleware;
import org.apache.arrow.flight.RequestContext;

/**
 * The client-chosen interactive deadline: request header {@value #HEADER}{@code : <milliseconds>}
 * asks for a shorter or longer deadline than the engine's default ({@code --query-timeout}), up to
 * its longest ({@code --max-query-timeout}). The deadline applies to the DoGet that runs the
 * statement; GetFlightInfo checks the header too, so a bad value fails before anything is planned.
 * This middleware only keeps the raw value; {@link #requested} judges it, inside the call, so a bad
 * value ends that call with INVALID_ARGUMENT through the one error edge.
 */
final class ClientDeadline implements FlightServerMiddleware {
  static final Key<ClientDeadline> KEY = Key.of("lake.client-deadline");

  /** Request header naming the interactive deadline the client wants, in milliseconds. */
  static final String HEADER = "x-lake-timeout-ms";

  private static final Pattern MILLIS = Pattern.compile("[0-9]{1,12}");

  private final Optional<String> raw;

  private ClientDeadline(Optional<String> raw) {
    this.raw = raw;
  }

  /**
   * The deadline the current call asked for, or empty when it sent no {@value #HEADER}. Throws
   * INVALID_ARGUMENT when the value is not a positive whole number of milliseconds, or is longer
   * than {@code max} (when the engine has one): such a statement belongs to the durable tier.
   */
  static Optional<Duration> requested(CallContext context, Optional<Duration> max) {
    ClientDeadline d = context.getMiddleware(KEY);
    return d == null ? Optional.empty() : parse(d.raw, max);
  }

  static Optional<Duration> parse(Optional<String> raw, Optional<Duration> max) {
    if (raw.isEmpty()) {
      return Optional.empty();
    }
    String value = raw.get().trim();
    if (!MILLIS.matcher(value).matches() || Long.parseLong(value) == 0) {
      throw new LakeException(
          ErrorCode.INVALID_ARGUMENT,
          HEADER
              + " must be a positive whole number of milliseconds: '"
              + shorten(raw.get())
              + "'");
    }
    Duration asked = Duration.ofMillis(Long.parseLong(value));
    if (max.isPresent() && asked.compareTo(max.get()) > 0) {
      throw new LakeException(
          ErrorCode.INVALID_ARGUMENT,
          HEADER
              + " asks for "
              + asked
              + ", longer than the longest interactive deadline "
              + max.get()
              + " (--max-query-timeout); submit the statement to the durable tier instead"
              + " (x-lake-durable: true or PollFlightInfo)");
    }
    return Optional.of(asked);
  }

  /** A hostile header must not make a huge error message. */
  private static String shorten(String s) {
    return s.length() <= 32 ? s : s.substring(0, 32) + "…";
  }

  @Override
  public void onBeforeSendingHeaders(CallHeaders outgoingHeaders) {}

  @Override
  public void onCallCompleted(CallStatus status) {}

  @Override
  public void onCallErrored(Throwable err) {}

  /** Keeps each call's {@value #HEADER} value. */
  static final class Factory implements FlightServerMiddleware.Factory<ClientDeadline> {
    @Override
    public ClientDeadline onCallStarted(
        CallInfo info, CallHeaders incomingHeaders, RequestContext context) {
      return new ClientDeadline(Optional.ofNullable(incomingHeaders.get(HEADER)));
    }
  }
}
