package dev.lake.frontdoor;

import dev.lake.core.QueryExecution;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.arrow.flight.FlightProducer.ServerStreamListener;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.ipc.ArrowReader;

/**
 * Streams one execution to a DoGet client batch by batch with real back-pressure: before each batch
 * it waits until gRPC reports the stream ready. The ready check runs under the same lock the
 * on-ready callback signals, so a wake-up between the check and the wait cannot be lost (the stall
 * of Arrow's CallbackBackpressureStrategy, arrow-java#346); the wait is additionally bounded so
 * even a lost signal only delays, never stalls. A client cancel or disconnect cancels the
 * execution.
 */
final class ResultStreamer {
  /** Upper bound of one wait for readiness before re-checking. */
  private static final long RECHECK_MILLIS = 200;

  /** Executions streaming on this replica, for CancelFlightInfo. */
  private final Set<Running> running = ConcurrentHashMap.newKeySet();

  /** A stream in progress: its ticket digest (never the ticket) and its execution. */
  record Running(String ticketDigest, QueryExecution execution) {}

  /**
   * Streams {@code execution} to {@code listener}; returns normally after completing or after the
   * client went away, throws on a failure the caller must report.
   */
  void stream(String ticketDigest, QueryExecution execution, ServerStreamListener listener) {
    Ready ready = new Ready();
    Running entry = new Running(ticketDigest, execution);
    running.add(entry);
    listener.setOnReadyHandler(ready::signal);
    listener.setOnCancelHandler(
        () -> {
          ready.cancel();
          execution.cancel();
        });
    try {
      ArrowReader reader = execution.reader();
      VectorSchemaRoot root = reader.getVectorSchemaRoot();
      listener.start(root);
      while (!ready.cancelled() && reader.loadNextBatch()) {
        if (!ready.await(listener)) {
          return;
        }
        listener.putNext();
      }
      if (!ready.cancelled()) {
        listener.completed();
      }
    } catch (IOException e) {
      if (!ready.cancelled()) {
        throw new UncheckedIOException(e);
      }
    } catch (RuntimeException e) {
      if (!ready.cancelled()) {
        throw e;
      }
    } finally {
      running.remove(entry);
    }
  }

  /** Cancels every stream of the ticket with {@code ticketDigest}; returns how many. */
  int cancel(String ticketDigest) {
    int n = 0;
    for (Running r : running) {
      if (r.ticketDigest().equals(ticketDigest)) {
        r.execution().cancel();
        n++;
      }
    }
    return n;
  }

  /** Readiness of one stream: signalled by gRPC's on-ready callback and by cancellation. */
  static final class Ready {
    private final Object lock = new Object();
    private boolean cancelled;

    void signal() {
      synchronized (lock) {
        lock.notifyAll();
      }
    }

    void cancel() {
      synchronized (lock) {
        cancelled = true;
        lock.notifyAll();
      }
    }

    boolean cancelled() {
      synchronized (lock) {
        return cancelled;
      }
    }

    /** Waits until the listener is ready; false when the stream was cancelled instead. */
    boolean await(ServerStreamListener listener) {
      synchronized (lock) {
        while (!cancelled && !listener.isCancelled() && !listener.isReady()) {
          try {
            lock.wait(RECHECK_MILLIS);
          } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            cancelled = true;
          }
        }
        if (listener.isCancelled()) {
          cancelled = true;
        }
        return !cancelled;
      }
    }
  }
}
