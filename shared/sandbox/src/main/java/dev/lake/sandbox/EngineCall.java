package dev.lake.sandbox;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.lake.core.ErrorCode;
import dev.lake.core.LakeException;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.SocketChannel;
import java.time.Duration;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;

/**
 * One request on one engine connection, from the supervisor's side, with the rules that bound it:
 * at its deadline (or when its caller stops it early) the engine is asked to cancel; if the engine
 * has not closed the connection {@link SandboxConfig#grace()} later, its process is killed. The
 * tenant's slot is released when the engine closed the connection or its process was killed,
 * whatever the native call does, so a slot is never held longer than the deadline plus the grace.
 */
final class EngineCall {
  private final EngineSupervisor supervisor;
  private final EngineSupervisor.Lease lease;
  private final SocketChannel channel;
  private final AtomicBoolean stopping = new AtomicBoolean();
  private final AtomicBoolean finished = new AtomicBoolean();
  private final ScheduledFuture<?> deadline;
  private volatile ScheduledFuture<?> killer;
  private volatile LakeException failure;
  private final AtomicLong peakRss;

  private EngineCall(
      EngineSupervisor supervisor,
      EngineSupervisor.Lease lease,
      SocketChannel channel,
      Duration timeout,
      LakeException overrun) {
    this.supervisor = supervisor;
    this.lease = lease;
    this.channel = channel;
    this.peakRss = lease.process().track();
    this.deadline =
        supervisor.schedule(
            () -> stop(overrun, "ran past its deadline of " + human(timeout)), timeout);
  }

  /**
   * Takes a slot for {@code tenant}, connects to its process and sends {@code request}; the call
   * fails with {@code overrun} if it is still running after {@code timeout}.
   */
  static EngineCall open(
      EngineSupervisor supervisor,
      String tenant,
      ObjectNode request,
      Duration timeout,
      LakeException overrun) {
    EngineSupervisor.Lease lease = supervisor.acquire(tenant, timeout);
    SocketChannel channel = null;
    try {
      channel = lease.process().connect();
      EngineCall call = new EngineCall(supervisor, lease, channel, timeout, overrun);
      Frames.write(channel, request);
      return call;
    } catch (IOException | RuntimeException e) {
      closeQuietly(channel);
      supervisor.release(lease);
      throw e instanceof LakeException lake ? lake : lease.process().ended();
    }
  }

  SocketChannel channel() {
    return channel;
  }

  EngineProcess process() {
    return lease.process();
  }

  /** The next reply frame; a broken connection throws why (see {@link #broken}). */
  JsonNode reply() {
    try {
      return Frames.read(channel).orElseThrow(() -> broken(null));
    } catch (IOException e) {
      throw broken(e);
    }
  }

  /**
   * Why the connection broke: this call's own failure (its deadline), else why its process ended (a
   * memory ceiling, another statement's overrun, a crash).
   */
  LakeException broken(Exception cause) {
    LakeException own = failure;
    if (own != null) {
      return own;
    }
    LakeException ended = lease.process().ended();
    if (cause != null && cause != ended && ended.getCause() == null) {
      ended.addSuppressed(cause);
    }
    return ended;
  }

  /**
   * Asks the engine to stop this request (deadline, cancel, caller gone) and kills its process if
   * the connection is still open after the grace. {@code reason} (may be null: a plain cancel) is
   * what a later read of this call throws.
   */
  void stop(LakeException reason, String why) {
    if (finished.get()) {
      return;
    }
    if (reason != null && failure == null) {
      failure = reason;
    }
    if (!stopping.compareAndSet(false, true)) {
      return;
    }
    try {
      Frames.writeFully(channel, ByteBuffer.wrap(new byte[] {EngineHost.CANCEL}));
    } catch (IOException e) {
      // the engine already closed the connection
    }
    killer =
        supervisor.schedule(
            () -> {
              if (!finished.get()) {
                supervisor.killForOverrun(
                    lease.process(),
                    why + " and did not stop within " + human(supervisor.config().grace()));
                finish();
              }
            },
            supervisor.config().grace());
  }

  /**
   * The caller is done with the call before its end: stop it and wait in the background for the
   * engine to close the connection (or for the kill), then release the slot.
   */
  void abandon() {
    if (finished.get()) {
      return;
    }
    stop(null, "was abandoned by its client");
    supervisor.background(
        () -> {
          ByteBuffer sink = ByteBuffer.allocate(64 << 10);
          try {
            while (channel.read(sink.clear()) >= 0) {
              // discard what was in flight
            }
            finish();
          } catch (IOException e) {
            // closed here: the kill task decides
          }
        });
  }

  /** The engine closed the connection (or the process is gone): release everything. */
  void finish() {
    if (!finished.compareAndSet(false, true)) {
      return;
    }
    deadline.cancel(false);
    ScheduledFuture<?> k = killer;
    if (k != null) {
      k.cancel(false);
    }
    lease.process().untrack(peakRss);
    closeQuietly(channel);
    supervisor.release(lease);
  }

  /**
   * The engine process's largest resident set sampled while this call ran: the memory its tenant's
   * statements in that process used together (one tenant per process at a time).
   */
  long peakResidentBytes() {
    return peakRss.get();
  }

  boolean finished() {
    return finished.get();
  }

  static String human(Duration d) {
    return d.toString().substring(2).toLowerCase(java.util.Locale.ROOT);
  }

  private static void closeQuietly(SocketChannel channel) {
    if (channel != null) {
      try {
        channel.close();
      } catch (IOException e) {
        // nothing left to release
      }
    }
  }

  static LakeException deadline(Duration timeout) {
    return new LakeException(
        ErrorCode.DEADLINE_EXCEEDED,
        "The query ran longer than its deadline of "
            + human(timeout)
            + " and was stopped; raise the engine's query timeout (--query-timeout, at most"
            + " --max-query-timeout) or submit it to the durable tier");
  }
}
