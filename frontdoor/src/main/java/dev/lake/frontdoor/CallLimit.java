package dev.lake.frontdoor;

import static java.util.Objects.requireNonNull;

import java.util.concurrent.ExecutorService;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.SynchronousQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.arrow.flight.CallHeaders;
import org.apache.arrow.flight.CallInfo;
import org.apache.arrow.flight.CallStatus;
import org.apache.arrow.flight.FlightServerMiddleware;
import org.apache.arrow.flight.RequestContext;

/**
 * Bounds the Flight calls a server runs at once. gRPC runs calls on the {@link #executor} (bounded
 * threads and queue). gRPC cannot turn an executor rejection into a status (the client sees a reset
 * stream), and this middleware itself runs on the executor, so it refuses an authenticated call
 * with RESOURCE_EXHAUSTED once {@link #limit} calls are in flight: three quarters of the threads,
 * keeping the rest (and the queue) free to start and refuse further calls cleanly. A call is
 * counted from its start until it completes, so a streaming DoGet holds its place until the stream
 * ends. It must be installed after authentication: Arrow does not complete middleware of a call
 * that a later middleware refuses.
 */
final class CallLimit implements FlightServerMiddleware {
  static final FlightServerMiddleware.Key<CallLimit> KEY =
      FlightServerMiddleware.Key.of("lake-call-limit");

  private final AtomicInteger active;
  private final AtomicBoolean done = new AtomicBoolean();

  private CallLimit(AtomicInteger active) {
    this.active = active;
  }

  /** The bounded executor for {@code config}; daemon threads named {@code lake-flight-N}. */
  static ExecutorService executor(FlightExecutorConfig config) {
    AtomicInteger n = new AtomicInteger();
    ThreadPoolExecutor pool =
        new ThreadPoolExecutor(
            config.threads(),
            config.threads(),
            30,
            TimeUnit.SECONDS,
            config.queue() == 0
                ? new SynchronousQueue<>()
                : new LinkedBlockingQueue<>(config.queue()),
            r -> {
              Thread t = new Thread(r, "lake-flight-" + n.incrementAndGet());
              t.setDaemon(true);
              return t;
            });
    pool.allowCoreThreadTimeOut(true);
    return pool;
  }

  /** The calls admitted at once by an executor of {@code config}. */
  static int limit(FlightExecutorConfig config) {
    return Math.max(1, config.threads() * 3 / 4);
  }

  @Override
  public void onBeforeSendingHeaders(CallHeaders outgoingHeaders) {}

  @Override
  public void onCallCompleted(CallStatus status) {
    if (done.compareAndSet(false, true)) {
      active.decrementAndGet();
    }
  }

  /** A call the client cancelled or that broke: Arrow may not complete it, so release here too. */
  @Override
  public void onCallErrored(Throwable err) {
    onCallCompleted(CallStatus.CANCELLED);
  }

  /** Admits a call while fewer than {@code limit} are in flight. */
  static final class Factory implements FlightServerMiddleware.Factory<CallLimit> {
    private final int limit;
    private final AtomicInteger active = new AtomicInteger();

    Factory(int limit) {
      if (limit < 1) {
        throw new IllegalArgumentException("limit must be positive: " + limit);
      }
      this.limit = limit;
    }

    @Override
    public CallLimit onCallStarted(
        CallInfo info, CallHeaders incomingHeaders, RequestContext context) {
      requireNonNull(info, "info is null");
      if (active.incrementAndGet() > limit) {
        active.decrementAndGet();
        throw FlightErrors.error(
            dev.lake.core.ErrorCode.RESOURCE_EXHAUSTED,
            "Server busy: "
                + limit
                + " calls are in flight; retry later (raise the limit with --flight-threads)");
      }
      return new CallLimit(active);
    }

    /** Calls in flight now. */
    int active() {
      return active.get();
    }
  }
}
