package dev.lake.core.testing;

import static java.util.Objects.requireNonNull;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.concurrent.atomic.AtomicReference;

/**
 * The one clock test double: a base clock plus an offset the test moves forward by hand. {@link
 * #MutableClock(Instant)} stands still between advances; {@link #ticking()} follows the system
 * clock (for tests where leases and waits must still elapse in real time).
 */
public final class MutableClock extends Clock {
  private final Clock base;
  private final AtomicReference<Duration> offset = new AtomicReference<>(Duration.ZERO);

  /** A clock fixed at {@code start} until advanced. */
  public MutableClock(Instant start) {
    this(Clock.fixed(requireNonNull(start, "start is null"), ZoneOffset.UTC));
  }

  private MutableClock(Clock base) {
    this.base = base;
  }

  /** The system clock plus an offset the test moves forward. */
  public static MutableClock ticking() {
    return new MutableClock(Clock.systemUTC());
  }

  public void advance(Duration d) {
    offset.updateAndGet(o -> o.plus(requireNonNull(d, "d is null")));
  }

  @Override
  public ZoneId getZone() {
    return ZoneOffset.UTC;
  }

  @Override
  public Clock withZone(ZoneId zone) {
    return this;
  }

  @Override
  public Instant instant() {
    return base.instant().plus(offset.get());
  }
}
