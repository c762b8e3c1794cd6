package dev.lake.core.testing;

import dev.lake.core.FormatContext;
import dev.lake.core.Registry;
import dev.lake.core.StorageAccess;
import java.time.Duration;
import java.util.List;
import org.apache.arrow.memory.BufferAllocator;

/** The {@link FormatContext} of a local test process: no object store, no registry caching. */
public final class TestFormatContext {
  private TestFormatContext() {}

  /** Over {@code registry} with the given format settings. */
  public static FormatContext local(
      Registry registry, BufferAllocator allocator, List<Object> settings) {
    return new FormatContext(registry, Duration.ZERO, allocator, StorageAccess.none(), settings);
  }
}
