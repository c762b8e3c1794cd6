package dev.lake.frontdoor;

import dev.lake.core.job.ResultFormat;
import dev.lake.core.job.SubmissionIds;
import java.util.Optional;
import org.apache.arrow.flight.CallHeaders;
import org.apache.arrow.flight.CallInfo;
import org.apache.arrow.flight.CallStatus;
import org.apache.arrow.flight.FlightProducer.CallContext;
import org.apache.arrow.flight.FlightServerMiddleware;
import org.apache.arrow.flight.RequestContext;

/**
 * The durable tier's request headers, parsed once per call: {@value SubmissionIds#HEADER} (the
 * client's idempotency key), {@value ResultFormat#HEADER} ({@code arrow}, the default, or {@code
 * parquet}: how a submitted job stores its result) and {@value #DURABLE_HEADER}{@code : true}
 * (answer GetFlightInfo from the durable tier). Authentication is {@link AuthMiddleware}'s; this
 * middleware only reads.
 */
final class DurableHeaders implements FlightServerMiddleware {
  static final Key<DurableHeaders> KEY = Key.of("lake.durable-headers");

  /** Request header asking GetFlightInfo to answer from the durable tier (value {@code true}). */
  static final String DURABLE_HEADER = "x-lake-durable";

  private final Optional<String> submissionId;
  private final Optional<String> resultFormat;
  private final boolean durable;

  private DurableHeaders(CallHeaders headers) {
    this.submissionId = Optional.ofNullable(headers.get(SubmissionIds.HEADER));
    this.resultFormat = Optional.ofNullable(headers.get(ResultFormat.HEADER));
    this.durable = "true".equalsIgnoreCase(String.valueOf(headers.get(DURABLE_HEADER)).trim());
  }

  /** The {@value SubmissionIds#HEADER} header of the current call, if sent. */
  static Optional<String> submissionId(CallContext context) {
    DurableHeaders h = context.getMiddleware(KEY);
    return h == null ? Optional.empty() : h.submissionId;
  }

  /**
   * The result format the current call asked for ({@link ResultFormat#ARROW} without the header);
   * an unknown value is {@code INVALID_ARGUMENT} naming the accepted ones.
   */
  static ResultFormat resultFormat(CallContext context) {
    DurableHeaders h = context.getMiddleware(KEY);
    return ResultFormat.parse(h == null ? Optional.empty() : h.resultFormat);
  }

  /** Whether the current call sent {@value #DURABLE_HEADER}{@code : true}. */
  static boolean durableRequested(CallContext context) {
    DurableHeaders h = context.getMiddleware(KEY);
    return h != null && h.durable;
  }

  @Override
  public void onBeforeSendingHeaders(CallHeaders outgoingHeaders) {}

  @Override
  public void onCallCompleted(CallStatus status) {}

  @Override
  public void onCallErrored(Throwable err) {}

  /** Reads the headers of each call. */
  static final class Factory implements FlightServerMiddleware.Factory<DurableHeaders> {
    @Override
    public DurableHeaders onCallStarted(
        CallInfo info, CallHeaders incomingHeaders, RequestContext context) {
      return new DurableHeaders(incomingHeaders);
    }
  }
}
