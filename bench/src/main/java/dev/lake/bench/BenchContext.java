package dev.lake.bench;

import static java.util.Objects.requireNonNull;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;

/**
 * What the metrics share within one run: the configuration, the data (generated lazily, cached per
 * scale factor), the raw Flight server, the lake stack (started lazily, if its modules exist) and
 * the client runner.
 */
final class BenchContext implements AutoCloseable {
  private final BenchConfig config;
  private final BufferAllocator allocator = new RootAllocator();
  private final ClientRunner clients;
  private final List<String> log = new ArrayList<>();
  private Path parquet;
  private RawFlightServer raw;
  private LakeStacks.Started lake;

  BenchContext(BenchConfig config) {
    this.config = requireNonNull(config, "config is null");
    this.clients = new ClientRunner(config.forkClient(), config.out().resolve("work"));
  }

  BenchConfig config() {
    return config;
  }

  BufferAllocator allocator() {
    return allocator;
  }

  ClientRunner clients() {
    return clients;
  }

  /** TPC-H of this scale factor as Parquet files (generated on first use, then reused). */
  synchronized Path parquet() throws Exception {
    if (parquet == null) {
      long start = System.nanoTime();
      parquet = TpchParquet.ensure(config.dataDir(), config.scaleFactor());
      note("parquet data ready in %.1f s at %s", (System.nanoTime() - start) / 1e9, parquet);
    }
    return parquet;
  }

  /** The transport floor server (started on first use). */
  synchronized RawFlightServer raw() throws Exception {
    if (raw == null) {
      raw = new RawFlightServer(allocator);
    }
    return raw;
  }

  /** The running lake stack, or empty when its modules are missing; see {@link #lakeMissing}. */
  synchronized Optional<LakeStack> lake() throws Exception {
    if (lake == null) {
      long start = System.nanoTime();
      lake = LakeStacks.start(this);
      if (lake.stack().isPresent()) {
        note("lake stack ready in %.1f s", (System.nanoTime() - start) / 1e9);
      }
    }
    return lake.stack();
  }

  /** Why the lake stack is missing (empty string when it runs). */
  synchronized String lakeMissing() throws Exception {
    lake();
    return lake.missing();
  }

  /** Adds a line to the run log shown in the report. */
  synchronized void note(String format, Object... args) {
    String line = String.format(java.util.Locale.ROOT, format, args);
    log.add(line);
    System.err.println("[bench] " + line);
  }

  synchronized List<String> log() {
    return List.copyOf(log);
  }

  @Override
  public synchronized void close() throws Exception {
    if (lake != null && lake.stack().isPresent()) {
      lake.stack().get().close();
    }
    if (raw != null) {
      raw.close();
    }
    allocator.close();
  }
}
