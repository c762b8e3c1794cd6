package dev.lake.engine;

import static java.util.Objects.requireNonNull;

import com.github.benmanes.caffeine.cache.Ticker;
import dev.lake.core.Bounds;
import java.time.Duration;

/**
 * When {@link SnapshotCache} makes and drops copies.
 *
 * @param fillAfterUses uncached reads of a snapshot before it is copied in the background (1 ..
 *     100; 2 = on second use, the default, so a table read once is never copied)
 * @param idle a copy unused this long is dropped (1 s .. 7 d; default 10 min)
 * @param ticker the clock of idle expiry (tests)
 */
record SnapshotCacheSettings(int fillAfterUses, Duration idle, Ticker ticker) {
  SnapshotCacheSettings {
    Bounds.check("fillAfterUses", fillAfterUses, 1, 100);
    requireNonNull(idle, "idle is null");
    Bounds.check("idle", idle, Duration.ofSeconds(1), Duration.ofDays(7));
    requireNonNull(ticker, "ticker is null");
  }

  static SnapshotCacheSettings defaults() {
    return new SnapshotCacheSettings(2, Duration.ofMinutes(10), Ticker.systemTicker());
  }
}
