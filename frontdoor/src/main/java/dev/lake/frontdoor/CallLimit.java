package dev.lake.frontdoor;

import static java.util.Objects.requireNonNull;

import java.util.concurrent.ExecutorService;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.SynchronousQueue;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.BiFunction;
import org.apache.arrow.flight.CallHeaders;
import org.apache.arrow.flight.CallInfo;
import org.apache.arrow.flight.CallStatus;
import org.apache.arrow.flight.FlightServerMiddleware;
import org.apache.arrow.flight.RequestContext;

/**
 * Bounds the Flight calls a server runs at once. gRPC runs calls on the {@link #executor} (bounded
 * threads and queue, and an overflow lane for what they cannot take, because gRPC cannot turn an
 * executor rejection into a status). This middleware runs on the executor: it refuses an
 * authenticated call with RESOURCE_EXHAUSTED 'retry later' when it starts on the overflow lane, or
 * once {@link #limit} calls are in flight: three quarters of the threads, keeping the rest (and the
 * queue) free to start and refuse further calls cleanly. A call is counted from its start until it
 * completes, so a streaming DoGet holds its place until the stream ends. It must be installed after
 * authentication: Arrow does not complete middleware of a call that a later middleware refuses.
 */
final class CallLimit implements FlightServerMiddleware {
  static final FlightServerMiddleware.Key<CallLimit> KEY =
      FlightServerMiddleware.Key.of("lake-call-limit");

  private final AtomicInteger active;
  private final AtomicBoolean done = new AtomicBoolean();

  private CallLimit(AtomicInteger active) {
    this.active = active;
  }

  /**
   * The bounded executor for {@code config}: daemon threads named {@code lake-flight-N}. A task it
   * cannot take (every thread busy, queue full: a burst over many connections) is not refused,
   * because gRPC cannot turn a refusal into a status: a refused call start is reset with RST_STREAM
   * INTERNAL, and a refused callback of a call in flight (its completion, a message) leaves that
   * call hanging and counted here forever. Such a task runs on the overflow lane instead: {@value
   * #OVERFLOW_THREADS} threads named {@code lake-flight-overflow-N} on which every call that starts
   * is refused RESOURCE_EXHAUSTED 'retry later' ({@link Factory#onCallStarted}), so the lane only
   * refuses new calls and runs the callbacks of calls already in flight. Its queue is bounded by
   * the calls the clients have open (HTTP/2 MAX_CONCURRENT_STREAMS per connection), each entry one
   * call's pending work, which gRPC holds for those calls anyway.
   */
  static ExecutorService executor(FlightExecutorConfig config) {
    ThreadPoolExecutor lane =
        new ThreadPoolExecutor(
            OVERFLOW_THREADS,
            OVERFLOW_THREADS,
            30,
            TimeUnit.SECONDS,
            new LinkedBlockingQueue<>(),
            named("lake-flight-overflow-", OverflowThread::new));
    lane.allowCoreThreadTimeOut(true);
    // Without a queue (the default) a task goes straight to an idle thread, the one that went idle
    // last (SynchronousQueue hands over last-in first-out, spinning briefly before it parks), and a
    // new thread starts only when none is idle: gRPC's own cached pool, bounded. With a queue, a
    // task waits in it and wakes the thread idle longest (first-in first-out over up to all the
    // core threads): every callback of a call then wakes a cold, parked thread, which cost
    // 0.3-0.5 ms per RPC on a loaded 2-core machine (docs/bench.md, 2026-12-02 11:20 UTC).
    boolean queued = config.queue() > 0;
    ThreadPoolExecutor pool =
        new ThreadPoolExecutor(
            queued ? config.threads() : 0,
            config.threads(),
            30,
            TimeUnit.SECONDS,
            queued ? new LinkedBlockingQueue<>(config.queue()) : new SynchronousQueue<>(),
            named("lake-flight-", Thread::new),
            (task, full) -> {
              if (full.isShutdown()) {
                throw new RejectedExecutionException("the Flight executor is shut down");
              }
              lane.execute(task);
            }) {
          @Override
          protected void terminated() {
            lane.shutdownNow();
          }
        };
    if (queued) {
      pool.allowCoreThreadTimeOut(true);
    }
    return pool;
  }

  /** Threads of the overflow lane of {@link #executor}. */
  static final int OVERFLOW_THREADS = 2;

  /** A thread of the overflow lane: calls starting on it are refused. */
  private static final class OverflowThread extends Thread {
    OverflowThread(Runnable task, String name) {
      super(task, name);
    }
  }

  /** Daemon threads named {@code prefix1, prefix2, …}, made by {@code create}. */
  static ThreadFactory named(String prefix, BiFunction<Runnable, String, Thread> create) {
    AtomicInteger n = new AtomicInteger();
    return r -> {
      Thread t = create.apply(r, prefix + n.incrementAndGet());
      t.setDaemon(true);
      return t;
    };
  }

  /** True on a thread of the overflow lane, where {@link Factory} refuses every call. */
  static boolean onOverflowLane() {
    return Thread.currentThread() instanceof OverflowThread;
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
      if (onOverflowLane()) {
        throw FlightErrors.error(
            dev.lake.core.ErrorCode.RESOURCE_EXHAUSTED,
            "Server busy: every Flight thread is taken and the call queue is full; retry later"
                + " (raise the bounds with --flight-threads and --flight-queue)");
      }
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
