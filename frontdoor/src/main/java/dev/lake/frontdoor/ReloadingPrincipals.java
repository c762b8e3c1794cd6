package dev.lake.frontdoor;

import static java.util.Objects.requireNonNull;

import dev.lake.core.Principal;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Clock;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A principals file that is read again when it changes, so rotating a token needs no restart. At
 * most once per {@code interval} the call that authenticates next reads the file (a few KiB) and
 * compares its SHA-256 with the loaded one; a changed file that loads becomes the set for every
 * later call, one that does not (unreadable, invalid JSON, a bad grant or hash) keeps the previous
 * set and logs one line naming the file and the reason, once per distinct content.
 */
final class ReloadingPrincipals implements Authenticator {
  private static final Logger LOG = LoggerFactory.getLogger(ReloadingPrincipals.class);

  private final Path file;
  private final Clock clock;
  private final long intervalNanos;
  private final Consumer<String> log;
  private final AtomicLong nextCheck;
  private volatile Principals current;
  private volatile byte[] seen; // the digest of the content last read, loaded or not

  /** Loads {@code file} now (failing as {@link Principals#load} does) and watches it afterwards. */
  ReloadingPrincipals(Path file, Duration interval, Clock clock) {
    this(file, interval, clock, LOG::warn);
  }

  ReloadingPrincipals(Path file, Duration interval, Clock clock, Consumer<String> log) {
    this.file = requireNonNull(file, "file is null");
    this.clock = requireNonNull(clock, "clock is null");
    this.intervalNanos = requireNonNull(interval, "interval is null").toNanos();
    this.log = requireNonNull(log, "log is null");
    this.seen = digest(read());
    this.current = Principals.load(file, clock);
    this.nextCheck = new AtomicLong(System.nanoTime() + intervalNanos);
  }

  @Override
  public Principal resolvePrincipal(String token) {
    long now = System.nanoTime();
    long due = nextCheck.get();
    if (now - due >= 0 && nextCheck.compareAndSet(due, now + intervalNanos)) {
      reloadIfChanged();
    }
    return current.resolvePrincipal(token);
  }

  /** The set calls are authenticated against now. */
  Principals current() {
    return current;
  }

  /** Reads the file and, if its content changed, loads it; a bad file keeps the current set. */
  void reloadIfChanged() {
    byte[] content;
    try {
      content = read();
    } catch (IllegalStateException e) {
      log.accept("principals file " + file + " is unreadable; keeping the loaded principals");
      return;
    }
    byte[] digest = digest(content);
    if (MessageDigest.isEqual(digest, seen)) {
      return;
    }
    seen = digest;
    try {
      Principals loaded = Principals.load(file, clock);
      current = loaded;
      LOG.info("principals file {} reloaded: {} entries", file, loaded.entries().size());
    } catch (RuntimeException e) {
      log.accept(
          "principals file "
              + file
              + " changed but was not loaded, keeping the previous "
              + current.entries().size()
              + " entries: "
              + e.getMessage());
    }
  }

  private byte[] read() {
    try {
      return Files.readAllBytes(file);
    } catch (IOException e) {
      throw new IllegalStateException("cannot read principals file " + file, e);
    }
  }

  private static byte[] digest(byte[] content) {
    try {
      return MessageDigest.getInstance("SHA-256").digest(content);
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("SHA-256 is missing from this JVM", e);
    }
  }
}
