package dev.lake.frontdoor;

import dev.lake.core.ErrorCode;
import dev.lake.core.LakeException;
import dev.lake.core.job.ResultFormat;
import dev.lake.durable.SubmissionIds;
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
 * The one parser of lake's request headers, read once per call:
 *
 * <ul>
 *   <li>{@value #TIMEOUT_HEADER}{@code : <milliseconds>}: the client-chosen interactive deadline,
 *       shorter or longer than the engine's default ({@code --query-timeout}), up to its longest
 *       ({@code --max-query-timeout}). It applies to the DoGet that runs the statement;
 *       GetFlightInfo checks it too, so a bad value fails before anything is planned.
 *   <li>{@value SubmissionIds#HEADER}: the client's idempotency key of a durable submission.
 *   <li>{@value ResultFormat#HEADER}: {@code arrow} (the default) or {@code parquet}, how a
 *       submitted job stores its result.
 *   <li>{@value #DURABLE_HEADER}{@code : true}: answer GetFlightInfo from the durable tier.
 * </ul>
 *
 * <p>The middleware only keeps the raw values; the accessors judge them inside the call, so a bad
 * value ends that call with INVALID_ARGUMENT through the one error edge. Authentication is {@link
 * AuthMiddleware}'s.
 */
final class RequestHeaders implements FlightServerMiddleware {
  static final Key<RequestHeaders> KEY = Key.of("lake.request-headers");

  /** Request header naming the interactive deadline the client wants, in milliseconds. */
  static final String TIMEOUT_HEADER = "x-lake-timeout-ms";

  /** Request header asking GetFlightInfo to answer from the durable tier (value {@code true}). */
  static final String DURABLE_HEADER = "x-lake-durable";

  private static final Pattern MILLIS = Pattern.compile("[0-9]{1,12}");

  private final Optional<String> timeout;
  private final Optional<String> submissionId;
  private final Optional<String> resultFormat;
  private final boolean durable;

  private RequestHeaders(CallHeaders headers) {
    this.timeout = Optional.ofNullable(headers.get(TIMEOUT_HEADER));
    this.submissionId = Optional.ofNullable(headers.get(SubmissionIds.HEADER));
    this.resultFormat = Optional.ofNullable(headers.get(ResultFormat.HEADER));
    this.durable = "true".equalsIgnoreCase(String.valueOf(headers.get(DURABLE_HEADER)).trim());
  }

  /**
   * The deadline the current call asked for, or empty when it sent no {@value #TIMEOUT_HEADER}.
   * Throws INVALID_ARGUMENT when the value is not a positive whole number of milliseconds, or is
   * longer than {@code max} (when the engine has one): such a statement belongs to the durable
   * tier.
   */
  static Optional<Duration> deadline(CallContext context, Optional<Duration> max) {
    RequestHeaders h = context.getMiddleware(KEY);
    return h == null ? Optional.empty() : parseDeadline(h.timeout, max);
  }

  /** The {@value SubmissionIds#HEADER} header of the current call, if sent. */
  static Optional<String> submissionId(CallContext context) {
    RequestHeaders h = context.getMiddleware(KEY);
    return h == null ? Optional.empty() : h.submissionId;
  }

  /**
   * The result format the current call asked for ({@link ResultFormat#ARROW} without the header);
   * an unknown value is {@code INVALID_ARGUMENT} naming the accepted ones.
   */
  static ResultFormat resultFormat(CallContext context) {
    RequestHeaders h = context.getMiddleware(KEY);
    return ResultFormat.parse(h == null ? Optional.empty() : h.resultFormat);
  }

  /** Whether the current call sent {@value #DURABLE_HEADER}{@code : true}. */
  static boolean durableRequested(CallContext context) {
    RequestHeaders h = context.getMiddleware(KEY);
    return h != null && h.durable;
  }

  /** Judges a raw {@value #TIMEOUT_HEADER} value; see {@link #deadline}. */
  static Optional<Duration> parseDeadline(Optional<String> raw, Optional<Duration> max) {
    if (raw.isEmpty()) {
      return Optional.empty();
    }
    String value = raw.get().trim();
    if (!MILLIS.matcher(value).matches() || Long.parseLong(value) == 0) {
      throw new LakeException(
          ErrorCode.INVALID_ARGUMENT,
          TIMEOUT_HEADER
              + " must be a positive whole number of milliseconds: '"
              + shorten(raw.get())
              + "'");
    }
    Duration asked = Duration.ofMillis(Long.parseLong(value));
    if (max.isPresent() && asked.compareTo(max.get()) > 0) {
      throw new LakeException(
          ErrorCode.INVALID_ARGUMENT,
          TIMEOUT_HEADER
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

  /** Reads the headers of each call. */
  static final class Factory implements FlightServerMiddleware.Factory<RequestHeaders> {
    @Override
    public RequestHeaders onCallStarted(
        CallInfo info, CallHeaders incomingHeaders, RequestContext context) {
      return new RequestHeaders(incomingHeaders);
    }
  }
}
