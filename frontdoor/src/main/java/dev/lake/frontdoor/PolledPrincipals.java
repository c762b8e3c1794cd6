package dev.lake.frontdoor;

import static java.util.Objects.requireNonNull;

import dev.lake.core.Principal;
import java.time.Clock;
import java.time.Duration;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Static-token principals from a remote {@link PrincipalsSource} (a Secrets Manager secret): read
 * once when started (a failure refuses to start: fail closed), then polled every {@code interval}
 * on one daemon thread, off the call path. A new version that loads replaces the set atomically; a
 * bad or unreadable one keeps the last good set and logs once ({@link ReloadingPrincipals}).
 * Closing stops the polling and closes the source if it is {@link AutoCloseable}; so does a failed
 * start.
 */
public final class PolledPrincipals implements Authenticator, AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(PolledPrincipals.class);

  private final ReloadingPrincipals principals;
  private final PrincipalsSource source;
  private final ScheduledExecutorService poller;

  private PolledPrincipals(
      ReloadingPrincipals principals, PrincipalsSource source, Duration interval) {
    this.principals = principals;
    this.source = source;
    this.poller =
        Executors.newSingleThreadScheduledExecutor(
            r -> {
              Thread t = new Thread(r, "lake-principals-poll");
              t.setDaemon(true);
              return t;
            });
    long millis = interval.toMillis();
    poller.scheduleWithFixedDelay(this::poll, millis, millis, TimeUnit.MILLISECONDS);
  }

  /** Reads {@code source} now (throwing if it cannot be read or loaded) and polls it. */
  public static PolledPrincipals start(PrincipalsSource source, Duration interval, Clock clock) {
    return start(source, interval, clock, LOG::warn);
  }

  static PolledPrincipals start(
      PrincipalsSource source, Duration interval, Clock clock, Consumer<String> log) {
    requireNonNull(interval, "interval is null");
    try {
      if (interval.isNegative() || interval.isZero()) {
        throw new IllegalArgumentException("interval must be positive: " + interval);
      }
      return new PolledPrincipals(ReloadingPrincipals.polled(source, clock, log), source, interval);
    } catch (RuntimeException e) {
      closeQuietly(source);
      throw e;
    }
  }

  private void poll() {
    try {
      principals.reloadIfChanged();
    } catch (RuntimeException e) {
      LOG.warn("polling the principals failed; keeping the loaded set", e); // never stop polling
    }
  }

  @Override
  public Principal resolvePrincipal(String token) {
    return principals.resolvePrincipal(token);
  }

  /** The version last read from the source (loaded or not). */
  public String seenVersion() {
    return principals.seenVersion();
  }

  /** How many entries the set in force holds. */
  public int entries() {
    return principals.current().entries().size();
  }

  @Override
  public void close() {
    poller.shutdownNow();
    closeQuietly(source);
  }

  private static void closeQuietly(PrincipalsSource source) {
    if (source instanceof AutoCloseable closeable) {
      try {
        closeable.close();
      } catch (Exception e) {
        LOG.warn("closing {} failed", source.name(), e);
      }
    }
  }
}
