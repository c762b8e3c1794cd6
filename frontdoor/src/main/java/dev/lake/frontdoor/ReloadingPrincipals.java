package dev.lake.frontdoor;

import static java.util.Objects.requireNonNull;

import dev.lake.core.Principal;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Principals read again from their {@link PrincipalsSource} when it changes, so rotating a token
 * needs no restart. {@link #reloadIfChanged} reads the source and compares the version with the one
 * last read; a new version that loads becomes the set for every later call (one volatile swap), one
 * that does not (invalid JSON, a bad grant or hash) keeps the previous set and logs one line naming
 * the source and the reason, once per version. An unreadable source keeps the set too. The first
 * read happens in the constructor and must succeed: no set at all admits nobody, so lake refuses to
 * start instead.
 *
 * <p>Who calls {@link #reloadIfChanged}: a file (a few KiB, local) is checked by the call that
 * authenticates next, at most once per interval; a remote source is polled off the call path
 * ({@link #polled} and a scheduler of the caller's), so a slow or unreachable store never delays a
 * call.
 */
final class ReloadingPrincipals implements Authenticator {
  private static final Logger LOG = LoggerFactory.getLogger(ReloadingPrincipals.class);

  private final PrincipalsSource source;
  private final Clock clock;
  private final long intervalNanos;
  private final boolean onCalls;
  private final Consumer<String> log;
  private final AtomicLong nextCheck;
  private volatile Principals current;
  private volatile String seen; // the version last read, loaded or not
  private volatile boolean unreadable; // the last read failed (logged once until it reads again)

  /** A principals file, loaded now and checked by calls at most once per {@code interval}. */
  ReloadingPrincipals(Path file, Duration interval, Clock clock) {
    this(file, interval, clock, LOG::warn);
  }

  ReloadingPrincipals(Path file, Duration interval, Clock clock, Consumer<String> log) {
    this(PrincipalsSource.file(file), interval, true, clock, log);
  }

  private ReloadingPrincipals(
      PrincipalsSource source,
      Duration interval,
      boolean onCalls,
      Clock clock,
      Consumer<String> log) {
    this.source = requireNonNull(source, "source is null");
    this.clock = requireNonNull(clock, "clock is null");
    this.intervalNanos = requireNonNull(interval, "interval is null").toNanos();
    this.onCalls = onCalls;
    this.log = requireNonNull(log, "log is null");
    PrincipalsSource.Version first;
    try {
      first = source.read();
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read " + source.name(), e);
    }
    this.current = Principals.parse(source.name(), first.json(), clock);
    this.seen = first.id();
    this.nextCheck = new AtomicLong(System.nanoTime() + intervalNanos);
  }

  /**
   * {@code source} loaded now; reloaded only when the caller's poller calls {@link
   * #reloadIfChanged}.
   */
  static ReloadingPrincipals polled(PrincipalsSource source, Clock clock, Consumer<String> log) {
    return new ReloadingPrincipals(source, Duration.ZERO, false, clock, log);
  }

  @Override
  public Principal resolvePrincipal(String token) {
    if (onCalls) {
      long now = System.nanoTime();
      long due = nextCheck.get();
      if (now - due >= 0 && nextCheck.compareAndSet(due, now + intervalNanos)) {
        reloadIfChanged();
      }
    }
    return current.resolvePrincipal(token);
  }

  /** The set calls are authenticated against now. */
  Principals current() {
    return current;
  }

  /** The version of the source last read (loaded or not). */
  String seenVersion() {
    return seen;
  }

  /**
   * Reads the source and, if its version changed, loads it; a bad version or an unreadable source
   * keeps the current set. Safe to call from one thread at a time alongside any number of calls.
   */
  synchronized void reloadIfChanged() {
    PrincipalsSource.Version version;
    try {
      version = source.read();
    } catch (IOException | RuntimeException e) {
      if (!unreadable) {
        unreadable = true;
        log.accept(
            source.name()
                + " is unreadable ("
                + e.getMessage()
                + "); keeping the loaded "
                + current.entries().size()
                + " entries");
      }
      return;
    }
    unreadable = false;
    if (version.id().equals(seen)) {
      return;
    }
    seen = version.id();
    try {
      Principals loaded = Principals.parse(source.name(), version.json(), clock);
      current = loaded;
      LOG.info("{} reloaded: {} entries", source.name(), loaded.entries().size());
    } catch (RuntimeException e) {
      log.accept(
          source.name()
              + " changed but was not loaded, keeping the previous "
              + current.entries().size()
              + " entries: "
              + e.getMessage());
    }
  }
}
