package dev.lake.frontdoor;

import static java.util.Objects.requireNonNull;

import dev.lake.core.ErrorCode;
import dev.lake.core.LakeException;
import dev.lake.core.QueryExecution;
import dev.lake.core.Verification;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;
import org.apache.arrow.flight.FlightProducer.ServerStreamListener;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.ipc.ArrowReader;

/**
 * Streams executions to DoGet clients from producer threads with real back-pressure.
 *
 * <p>Why a producer thread: Arrow Flight calls {@code getStream} on the call's serializing gRPC
 * executor, and gRPC delivers the on-ready and on-cancel callbacks on that same executor. A {@code
 * getStream} that waits for readiness itself therefore waits for a signal that cannot arrive until
 * it returns. {@link #start} registers the callbacks, hands the stream to a bounded pool of
 * producer threads and returns at once; the producer pulls the next batch from the engine (which
 * overlaps DuckDB's work with gRPC sending the previous batch) and waits for readiness only before
 * handing a batch over. The wait checks {@code isReady()} under the lock the on-ready callback
 * signals, so a wake-up cannot be lost, and it never polls. Batches go out with Flight's zero-copy
 * write through a {@link WireRoot}: Netty writes the batch's own Arrow buffers to the socket
 * instead of a copy, and the stream ends (slot released) once gRPC let go of them, at most the idle
 * timeout after its last batch. This holds for every execution, engine results included: their
 * batches may outlive the execution (the engine imports them into an allocator that closes at its
 * last release, see {@code DuckDbExecution}), so a client that stops reading the last batches keeps
 * only their memory, never the execution, its engine pool or the slot.
 *
 * <p>Bounds: a client that reads nothing for {@code idleTimeout} while the server has a batch ready
 * gets TIMED_OUT and its stream ends, releasing the execution and the admission slot. A client
 * cancel or disconnect interrupts the execution at once (CancelFlightInfo does the same through
 * {@link #cancel}).
 */
final class ResultStreamer implements AutoCloseable {
  /** Executions streaming on this replica, for CancelFlightInfo. */
  private final Set<Running> running = ConcurrentHashMap.newKeySet();

  private final ProducerPool producers;
  private final Duration idleTimeout;

  /**
   * @param producerThreads most streams produced at once; the admission gates already bound
   *     concurrent streams to the global query limit, so that limit is the right size
   * @param idleTimeout longest wait for a client to accept the next batch
   */
  ResultStreamer(int producerThreads, Duration idleTimeout) {
    this.idleTimeout = requireNonNull(idleTimeout, "idleTimeout is null");
    this.producers = new ProducerPool(producerThreads);
  }

  /** A stream in progress: its ticket digest (never the ticket) and its execution. */
  record Running(String ticketDigest, QueryExecution execution) {}

  /**
   * Takes ownership of {@code execution} and of {@code held} (e.g. an admission permit) and streams
   * the execution to {@code listener} on a producer thread; returns immediately. Everything is
   * closed when the stream ends, however it ends; failures go to the client through {@link
   * FlightErrors}. Just before the stream ends, {@code notes} get its timings and the execution's
   * accounting (before the listener completes, so the call's audit line carries them; the
   * accounting as a future, so ending the stream never waits for the engine's memory sample).
   */
  void start(
      String ticketDigest,
      QueryExecution execution,
      ServerStreamListener listener,
      List<? extends AutoCloseable> held,
      CallNotes notes) {
    start(ticketDigest, execution, listener, held, notes, Verification.passed());
  }

  /**
   * As {@link #start(String, QueryExecution, ServerStreamListener, List, CallNotes)} for an
   * execution whose sealed snapshots are still being checked ({@code verified}, e.g. Iceberg's REST
   * round trips): the producer runs the statement up to its first batch while the checks run, then
   * awaits them before it sends anything, not even the schema message. A failed check is the
   * stream's error, also when the execution failed too (it may have read a snapshot that is gone).
   */
  void start(
      String ticketDigest,
      QueryExecution execution,
      ServerStreamListener listener,
      List<? extends AutoCloseable> held,
      CallNotes notes,
      Verification verified) {
    requireNonNull(verified, "verified is null");
    Flow flow = new Flow();
    Running entry = new Running(ticketDigest, execution);
    running.add(entry);
    listener.setOnReadyHandler(flow::signal);
    listener.setOnCancelHandler(
        () -> {
          flow.cancel();
          execution.cancel();
        });
    Runnable task = () -> produce(entry, flow, listener, held, new Timing(notes), verified);
    try {
      producers.execute(task);
    } catch (RejectedExecutionException e) {
      finish(entry, held);
      listener.error(
          FlightErrors.toFlight(
              new LakeException(ErrorCode.OVERLOADED, "Server is shutting down, retry later")));
    }
  }

  private void produce(
      Running entry,
      Flow flow,
      ServerStreamListener listener,
      List<? extends AutoCloseable> held,
      Timing timing,
      Verification verified) {
    Optional<WireRoot> wire = Optional.empty();
    try {
      ArrowReader reader = entry.execution().reader();
      VectorSchemaRoot root;
      boolean more;
      try {
        // the statement runs up to its first batch while the sealed snapshots are checked
        root = reader.getVectorSchemaRoot();
        more = !flow.cancelled() && reader.loadNextBatch();
      } catch (Exception e) {
        verified.await(); // a failed check wins over the execution's own failure
        throw e;
      }
      verified.await(); // fail closed: nothing is sent before every check passed
      wire = WireRoot.over(root);
      if (wire.isPresent()) {
        listener.setUseZeroCopy(true);
        listener.start(wire.get().root());
      } else {
        listener.start(root);
      }
      while (more) {
        timing.batch();
        if (!flow.awaitReady(listener, idleTimeout)) {
          return; // the client went away; nothing to tell it
        }
        if (wire.isPresent()) {
          wire.get().take(root);
        }
        listener.putNext();
        more = !flow.cancelled() && reader.loadNextBatch();
      }
      if (!flow.cancelled()) {
        timing.end(entry.execution());
        listener.completed();
      }
    } catch (Exception e) {
      timing.end(entry.execution());
      if (!flow.cancelled() && !listener.isCancelled()) {
        listener.error(FlightErrors.toFlight(e));
      }
    } finally {
      timing.end(entry.execution());
      drain(wire);
      finish(entry, held);
    }
  }

  /**
   * Waits (at most the idle timeout: the client reading nothing) until gRPC has written the
   * stream's last batches, so the stream's admission slot stays held while its memory is in use; a
   * wire root not drained by then closes at its last release (a cancel or disconnect releases it).
   */
  private void drain(Optional<WireRoot> wire) {
    if (wire.isEmpty()) {
      return;
    }
    try {
      wire.get().awaitDrained(idleTimeout);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    } finally {
      wire.get().close();
    }
  }

  /** One stream's timings, handed to its notes once; used by its producer thread only. */
  private static final class Timing {
    private final CallNotes notes;
    private final long start = System.nanoTime();
    private long firstBatch = -1;
    private boolean ended;

    Timing(CallNotes notes) {
      this.notes = requireNonNull(notes, "notes is null");
    }

    void batch() {
      if (firstBatch < 0) {
        firstBatch = System.nanoTime();
      }
    }

    void end(QueryExecution execution) {
      if (ended) {
        return;
      }
      ended = true;
      long now = System.nanoTime();
      notes.streamed(
          Duration.ofNanos((firstBatch < 0 ? now : firstBatch) - start),
          Duration.ofNanos(now - start),
          execution.statsLater()); // never waits: the stream's status goes out without delay
    }
  }

  /**
   * Closes the execution and everything held, then stops counting the stream: {@link #active()}
   * drops only once its admission slot is free again, so "no active stream" means "nothing held".
   */
  private void finish(Running entry, List<? extends AutoCloseable> held) {
    try {
      entry.execution().close();
    } finally {
      for (AutoCloseable c : held) {
        try {
          c.close();
        } catch (Exception e) {
          // a permit or reader that fails to close has nothing left to release
        }
      }
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

  /**
   * Streams currently held by this replica, until their execution and admission slot are released
   * (for tests and metrics).
   */
  int active() {
    return running.size();
  }

  /**
   * Stops taking streams, cancels the running ones and waits (at most {@link #CLOSE_WAIT}) until
   * their producers closed what they hold, so a caller may close the allocator after this.
   */
  @Override
  public void close() {
    producers.shutdownNow();
    for (Running r : running) {
      r.execution().cancel();
    }
    try {
      producers.awaitTermination(CLOSE_WAIT.toMillis(), TimeUnit.MILLISECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  /** Longest wait in {@link #close} for cancelled producers to finish. */
  static final Duration CLOSE_WAIT = Duration.ofSeconds(10);

  /** Readiness of one stream: signalled by gRPC's on-ready callback and by cancellation. */
  static final class Flow {
    private final ReentrantLock lock = new ReentrantLock();
    private final Condition changed = lock.newCondition();
    private boolean cancelled;

    void signal() {
      lock.lock();
      try {
        changed.signalAll();
      } finally {
        lock.unlock();
      }
    }

    void cancel() {
      lock.lock();
      try {
        cancelled = true;
        changed.signalAll();
      } finally {
        lock.unlock();
      }
    }

    boolean cancelled() {
      lock.lock();
      try {
        return cancelled;
      } finally {
        lock.unlock();
      }
    }

    /**
     * Waits until the client can take a batch: true when ready, false when the stream was
     * cancelled; throws TIMED_OUT ({@link ErrorCode#DEADLINE_EXCEEDED}) after {@code idle}.
     */
    boolean awaitReady(ServerStreamListener listener, Duration idle) {
      lock.lock();
      try {
        long remaining = idle.toNanos();
        while (!cancelled && !listener.isCancelled() && !listener.isReady()) {
          if (remaining <= 0) {
            throw new LakeException(
                ErrorCode.DEADLINE_EXCEEDED,
                "The client read no data for "
                    + idle.toString().substring(2).toLowerCase(java.util.Locale.ROOT)
                    + " (idle stream timeout); the stream was ended and its slot released. Read"
                    + " results continuously, or submit large results to the durable tier");
          }
          remaining = changed.awaitNanos(remaining);
        }
        if (listener.isCancelled()) {
          cancelled = true;
        }
        return !cancelled;
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        cancelled = true;
        return false;
      } finally {
        lock.unlock();
      }
    }
  }
}
