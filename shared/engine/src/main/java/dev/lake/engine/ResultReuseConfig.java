package dev.lake.engine;

import dev.lake.core.Bounds;

/**
 * Settings of exact result reuse ({@link ReusingQueryEngine}).
 *
 * @param maxBytes total Arrow IPC bytes of stored results (default 64 MiB; 0 = reuse off; at most
 *     16 GiB)
 * @param maxEntryBytes largest single result stored (default 4 MiB; 1 KiB to {@code maxBytes}, at
 *     most 1 GiB); a bigger result streams as usual and is not stored
 */
public record ResultReuseConfig(long maxBytes, long maxEntryBytes) {
  public static final long DEFAULT_MAX_BYTES = 64L << 20;
  public static final long DEFAULT_MAX_ENTRY_BYTES = 4L << 20;

  public ResultReuseConfig {
    Bounds.check("result reuse bytes", maxBytes, 0, 16L << 30);
    if (maxBytes > 0) {
      Bounds.check(
          "result reuse entry bytes", maxEntryBytes, 1L << 10, Math.min(maxBytes, 1L << 30));
    }
  }

  public static ResultReuseConfig defaults() {
    return new ResultReuseConfig(DEFAULT_MAX_BYTES, DEFAULT_MAX_ENTRY_BYTES);
  }

  public static ResultReuseConfig off() {
    return new ResultReuseConfig(0, 0);
  }

  boolean enabled() {
    return maxBytes > 0;
  }
}
