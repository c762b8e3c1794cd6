package dev.lake.frontdoor;

import static java.util.Objects.requireNonNull;

import dev.lake.core.Catalogs;
import dev.lake.core.KeyService;
import dev.lake.core.QueryEngine;
import dev.lake.core.SqlAdmission;
import dev.lake.core.TableReader;
import dev.lake.durable.DurableTier;
import java.util.ArrayList;
import java.util.List;
import org.apache.arrow.memory.BufferAllocator;

/**
 * Everything the front door talks to, as ports: admission, catalogs, readers, engine and ticket
 * keys. {@code Wiring} builds the real set; tests may pass fakes of these ports. Closing releases
 * the engine and every {@code owned} resource (newest first); the allocator belongs to the caller.
 */
public record Components(
    BufferAllocator allocator,
    SqlAdmission admission,
    Catalogs catalogs,
    List<TableReader> readers,
    QueryEngine engine,
    KeyService keys,
    List<AutoCloseable> owned)
    implements AutoCloseable {
  public Components {
    requireNonNull(allocator, "allocator is null");
    requireNonNull(admission, "admission is null");
    requireNonNull(catalogs, "catalogs is null");
    readers = List.copyOf(requireNonNull(readers, "readers is null"));
    requireNonNull(engine, "engine is null");
    requireNonNull(keys, "keys is null");
    owned = List.copyOf(requireNonNull(owned, "owned is null"));
  }

  /** What the durable tier uses of these components (they stay the caller's). */
  public DurableTier.Inputs durableInputs() {
    return new DurableTier.Inputs(keys, catalogs, engine, allocator);
  }

  @Override
  public void close() {
    List<AutoCloseable> all = new ArrayList<>(owned);
    all.add(engine);
    RuntimeException failure = null;
    for (int i = all.size() - 1; i >= 0; i--) {
      try {
        all.get(i).close();
      } catch (Exception e) {
        if (failure == null) {
          failure = new IllegalStateException("failed to close a component", e);
        } else {
          failure.addSuppressed(e);
        }
      }
    }
    if (failure != null) {
      throw failure;
    }
  }
}
