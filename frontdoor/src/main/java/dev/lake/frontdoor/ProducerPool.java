package dev.lake.frontdoor;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.SynchronousQueue;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;

/**
 * The producer threads of {@link ResultStreamer}: a stream goes to the thread that went idle last
 * (SynchronousQueue: last-in first-out, spinning briefly before it parks) or to a new one, up to
 * {@code threads}; a queue in front of the threads would wake the thread idle longest for every
 * stream, which costs a cold wake-up per DoGet on a loaded machine (the Flight executor's measured
 * cost, see docs/bench.md 2026-12-02 11:20 UTC and {@code CallLimit#executor}). The gates bound
 * streams to {@code threads}, but a finished stream frees its slot a moment before its thread is
 * idle again, so a stream that finds every thread busy goes to a backlog pool of as many threads
 * (queued, as every stream was before) instead of being refused. Nothing is refused until shutdown.
 */
final class ProducerPool extends ThreadPoolExecutor {
  private final ThreadPoolExecutor backlog;

  ProducerPool(int threads) {
    this(threads, CallLimit.named("lake-stream-", Thread::new));
  }

  private ProducerPool(int threads, ThreadFactory factory) {
    this(threads, factory, backlog(threads, factory));
  }

  private ProducerPool(int threads, ThreadFactory factory, ThreadPoolExecutor backlog) {
    super(
        0,
        threads,
        30,
        TimeUnit.SECONDS,
        new SynchronousQueue<>(),
        factory,
        (task, pool) -> {
          if (pool.isShutdown()) {
            throw new RejectedExecutionException("the result streamer is closed");
          }
          backlog.execute(task);
        });
    this.backlog = backlog;
  }

  private static ThreadPoolExecutor backlog(int threads, ThreadFactory factory) {
    ThreadPoolExecutor backlog =
        new ThreadPoolExecutor(
            threads, threads, 30, TimeUnit.SECONDS, new LinkedBlockingQueue<>(), factory);
    backlog.allowCoreThreadTimeOut(true);
    return backlog;
  }

  /** Threads of the backlog (for tests). */
  int backlogThreads() {
    return backlog.getPoolSize();
  }

  @Override
  public void shutdown() {
    super.shutdown();
    backlog.shutdown();
  }

  @Override
  public List<Runnable> shutdownNow() {
    List<Runnable> pending = new ArrayList<>(super.shutdownNow());
    pending.addAll(backlog.shutdownNow());
    return pending;
  }

  @Override
  public boolean awaitTermination(long timeout, TimeUnit unit) throws InterruptedException {
    long deadline = System.nanoTime() + unit.toNanos(timeout);
    return super.awaitTermination(timeout, unit)
        && backlog.awaitTermination(
            Math.max(0, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
  }
}
