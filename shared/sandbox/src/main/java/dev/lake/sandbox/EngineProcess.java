package dev.lake.sandbox;

import static java.util.Objects.requireNonNull;

import dev.lake.core.ErrorCode;
import dev.lake.core.LakeException;
import java.io.IOException;
import java.net.StandardProtocolFamily;
import java.net.UnixDomainSocketAddress;
import java.nio.channels.SocketChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;

/**
 * One started engine child process: its socket, its resident-set figures, and why it was killed
 * (the error every statement it held fails with). Killing is SIGKILL: nothing in the process gets
 * to finish a result.
 */
final class EngineProcess {
  private final int id;
  private final Process process;
  private final Path socket;
  private final long ceilingBytes;
  private final AtomicReference<LakeException> death = new AtomicReference<>();
  private final AtomicLong rssBytes = new AtomicLong();
  private final AtomicLong peakRssBytes = new AtomicLong();
  private final java.util.Set<AtomicLong> running =
      java.util.Collections.newSetFromMap(new java.util.concurrent.ConcurrentHashMap<>());

  EngineProcess(int id, Process process, Path socket, long ceilingBytes) {
    this.id = id;
    this.process = requireNonNull(process, "process is null");
    this.socket = requireNonNull(socket, "socket is null");
    this.ceilingBytes = ceilingBytes;
  }

  int id() {
    return id;
  }

  long pid() {
    return process.pid();
  }

  Process process() {
    return process;
  }

  long ceilingBytes() {
    return ceilingBytes;
  }

  boolean alive() {
    return death.get() == null && process.isAlive();
  }

  /** Waits until the process listens, at most {@code timeoutMillis}; false when it died first. */
  boolean awaitListening(long timeoutMillis) throws InterruptedException {
    long end = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(timeoutMillis);
    while (System.nanoTime() < end && process.isAlive()) {
      if (Files.exists(socket)) {
        try (SocketChannel probe = SocketChannel.open(StandardProtocolFamily.UNIX)) {
          probe.connect(UnixDomainSocketAddress.of(socket));
          return true;
        } catch (IOException e) {
          // not yet accepting
        }
      }
      Thread.sleep(10);
    }
    return false;
  }

  /** A new connection for one request; fails with the reason if the process is gone. */
  SocketChannel connect() {
    LakeException dead = death.get();
    if (dead != null) {
      throw dead;
    }
    try {
      SocketChannel channel = SocketChannel.open(StandardProtocolFamily.UNIX);
      channel.connect(UnixDomainSocketAddress.of(socket));
      return channel;
    } catch (IOException e) {
      throw ended();
    }
  }

  /**
   * Records one resident-set sample (also as the peak of every statement running now); true when it
   * is past the ceiling.
   */
  boolean sample(long bytes) {
    rssBytes.set(bytes);
    peakRssBytes.accumulateAndGet(bytes, Math::max);
    for (AtomicLong peak : running) {
      peak.accumulateAndGet(bytes, Math::max);
    }
    return bytes > ceilingBytes;
  }

  /** A statement starts: the returned figure follows the process's resident set until it ends. */
  AtomicLong track() {
    AtomicLong peak = new AtomicLong(rssBytes.get());
    running.add(peak);
    return peak;
  }

  void untrack(AtomicLong peak) {
    running.remove(peak);
  }

  long rssBytes() {
    return rssBytes.get();
  }

  long peakRssBytes() {
    return peakRssBytes.get();
  }

  /** Kills the process (SIGKILL); the first reason given is what its statements fail with. */
  void kill(LakeException reason) {
    death.compareAndSet(null, reason);
    process.destroyForcibly();
  }

  /**
   * Why this process can no longer serve: its kill reason, or (it exited by itself) an internal
   * error. Waits up to a second for the exit to be observed, so a statement whose stream broke
   * because of a kill reports the kill.
   */
  LakeException ended() {
    try {
      process.waitFor(1, TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    LakeException reason = death.get();
    if (reason != null) {
      return reason;
    }
    if (process.isAlive()) {
      return new LakeException(
          ErrorCode.INTERNAL,
          "The engine process running this statement closed its connection; the statement was"
              + " stopped; retry");
    }
    death.compareAndSet(
        null,
        new LakeException(
            ErrorCode.INTERNAL,
            "The engine process running this statement exited ("
                + exitCode()
                + "); the statement was stopped and a new engine process takes its place; retry"));
    return death.get();
  }

  private String exitCode() {
    try {
      return "code " + process.exitValue();
    } catch (IllegalThreadStateException e) {
      return "running";
    }
  }

  void deleteSocket() {
    try {
      Files.deleteIfExists(socket);
    } catch (IOException e) {
      // best effort: the directory is private and removed at close
    }
  }

  @Override
  public String toString() {
    return "engine process " + id + " (pid " + process.pid() + ")";
  }
}
