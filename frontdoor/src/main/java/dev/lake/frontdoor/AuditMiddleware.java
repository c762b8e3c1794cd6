package dev.lake.frontdoor;

import static java.util.Objects.requireNonNull;

import dev.lake.core.Principal;
import dev.lake.core.QueryStats;
import dev.lake.core.SnapshotSet;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.LongAdder;
import org.apache.arrow.flight.CallHeaders;
import org.apache.arrow.flight.CallInfo;
import org.apache.arrow.flight.CallStatus;
import org.apache.arrow.flight.FlightProducer.CallContext;
import org.apache.arrow.flight.FlightRuntimeException;
import org.apache.arrow.flight.FlightServerMiddleware;
import org.apache.arrow.flight.RequestContext;

/**
 * The per-call record behind the audit line: started when the call arrives (calls that
 * authentication rejects are audited by {@link Factory#auditingRejections}), filled while it runs
 * ({@link AuditingProducer} counts streamed rows and bytes and names the principal; handlers note
 * the query, job, snapshots, timings and accounting through {@link CallNotes}), and handed to the
 * {@link CallObserver} once the call completes — for a DoGet, after its last batch.
 */
final class AuditMiddleware implements FlightServerMiddleware, CallNotes {
  static final Key<AuditMiddleware> KEY = Key.of("lake.audit");

  private static final SnapshotSet NO_SNAPSHOTS = SnapshotSet.empty();
  private static final CompletableFuture<QueryStats> NO_STATS =
      CompletableFuture.completedFuture(QueryStats.NONE);

  private final CallObserver observer;
  private final Clock clock;
  private final String rpc;
  private final Instant started;
  private final long startNanos = System.nanoTime();
  private final LongAdder rows = new LongAdder();
  private final LongAdder bytes = new LongAdder();
  private volatile Principal principal;
  private volatile String queryId;
  private volatile String jobId;
  // kept as the set and rendered for the line when the call completes (after its status was sent)
  private volatile SnapshotSet snapshots = NO_SNAPSHOTS;
  private volatile Duration planning;
  private volatile Duration firstBatch;
  private volatile Duration download;
  private volatile CompletableFuture<QueryStats> stats = NO_STATS;

  private AuditMiddleware(CallObserver observer, Clock clock, String rpc) {
    this.observer = observer;
    this.clock = clock;
    this.rpc = rpc;
    this.started = clock.instant();
  }

  /** The audit record of the current call, if the server audits. */
  static Optional<AuditMiddleware> of(CallContext context) {
    return Optional.ofNullable(context.getMiddleware(KEY));
  }

  @Override
  public void query(String queryId) {
    this.queryId = requireNonNull(queryId, "queryId is null");
  }

  @Override
  public void snapshots(SnapshotSet snapshots) {
    this.snapshots = requireNonNull(snapshots, "snapshots is null");
  }

  @Override
  public void job(String jobId) {
    this.jobId = requireNonNull(jobId, "jobId is null");
  }

  @Override
  public void planned(Duration elapsed) {
    this.planning = requireNonNull(elapsed, "elapsed is null");
  }

  @Override
  public void streamed(Duration firstBatch, Duration total, CompletableFuture<QueryStats> stats) {
    this.firstBatch = requireNonNull(firstBatch, "firstBatch is null");
    this.download = requireNonNull(total, "total is null");
    this.stats = requireNonNull(stats, "stats is null");
  }

  void principal(Principal p) {
    this.principal = p;
  }

  void streamed(long batchRows, long batchBytes) {
    rows.add(batchRows);
    bytes.add(batchBytes);
  }

  @Override
  public void onBeforeSendingHeaders(CallHeaders outgoingHeaders) {}

  @Override
  public void onCallCompleted(CallStatus status) {
    // Everything but the accounting is read now; the record is handed over once the accounting's
    // last figure landed (at once, unless a stream's engine memory sample is still being taken:
    // then on the thread that completes it, within ExecutionAccounting's bounded wait).
    long durationMillis = (System.nanoTime() - startNanos) / 1_000_000;
    stats.thenAccept(s -> observer.completed(record(status, durationMillis, s)));
  }

  private AuditRecord record(CallStatus status, long durationMillis, QueryStats s) {
    Principal p = principal;
    // an execution that measures nothing (a stored part) has no accounting to report
    Optional<QueryStats> accounting = s.equals(QueryStats.NONE) ? Optional.empty() : Optional.of(s);
    return new AuditRecord(
        started,
        p == null ? "-" : p.tenant(),
        p == null ? "-" : p.id(),
        rpc,
        UUID.randomUUID().toString(), // the call's id: only its line names it
        new AuditRecord.Query(
            Optional.ofNullable(queryId),
            Optional.ofNullable(jobId),
            snapshots.pins(),
            Optional.ofNullable(planning),
            Optional.ofNullable(firstBatch),
            Optional.ofNullable(download),
            accounting),
        rows.sum(),
        bytes.sum(),
        durationMillis,
        status.code().name(),
        CallObserver.outcome(status.code()));
  }

  @Override
  public void onCallErrored(Throwable err) {}

  static final class Factory implements FlightServerMiddleware.Factory<AuditMiddleware> {
    private final CallObserver observer;
    private final Clock clock;

    Factory(CallObserver observer, Clock clock) {
      this.observer = requireNonNull(observer, "observer is null");
      this.clock = requireNonNull(clock, "clock is null");
    }

    @Override
    public AuditMiddleware onCallStarted(
        CallInfo info, CallHeaders incomingHeaders, RequestContext context) {
      return new AuditMiddleware(observer, clock, info.method().name());
    }

    /**
     * {@code delegate} (authentication), with the calls it rejects audited: Flight completes no
     * middleware of a call rejected while middlewares start, so the rejection is recorded here.
     */
    <T extends FlightServerMiddleware> FlightServerMiddleware.Factory<T> auditingRejections(
        FlightServerMiddleware.Factory<T> delegate) {
      requireNonNull(delegate, "delegate is null");
      return (info, headers, context) -> {
        AuditMiddleware rejected = new AuditMiddleware(observer, clock, info.method().name());
        try {
          return delegate.onCallStarted(info, headers, context);
        } catch (FlightRuntimeException e) {
          rejected.onCallCompleted(e.status());
          throw e;
        }
      };
    }
  }
}
