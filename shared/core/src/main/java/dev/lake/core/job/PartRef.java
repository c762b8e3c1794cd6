package dev.lake.core.job;

import static java.util.Objects.requireNonNull;

/** One published part of a durable result: its object key and exact row and byte counts. */
public record PartRef(int index, String key, long rows, long bytes) {
  public PartRef {
    requireNonNull(key, "key is null");
    if (index < 0 || rows < 0 || bytes < 0) {
      throw new IllegalArgumentException("index, rows and bytes must be >= 0");
    }
  }
}
