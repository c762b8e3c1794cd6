package dev.lake.core;

import static java.util.Objects.requireNonNull;

import java.util.List;
import java.util.Optional;

/**
 * One catalog lake serves: how its names resolve to exact snapshots and how those snapshots are
 * read (one reader per format the catalog serves: {@code lake} may serve several), plus the
 * resource that owns its connections (closed with the other components). A table format builds its
 * catalog in {@link TableFormat#open}; the composition root never builds one by hand.
 */
public record CatalogPlugin(
    TableResolver resolver, List<TableReader> readers, Optional<AutoCloseable> owner) {
  public CatalogPlugin {
    requireNonNull(resolver, "resolver is null");
    readers = List.copyOf(requireNonNull(readers, "readers is null"));
    requireNonNull(owner, "owner is null");
    if (readers.isEmpty()) {
      throw new IllegalArgumentException("a catalog needs a reader");
    }
  }

  /** A catalog of one format. */
  public CatalogPlugin(TableResolver resolver, TableReader reader, Optional<AutoCloseable> owner) {
    this(resolver, List.of(requireNonNull(reader, "reader is null")), owner);
  }

  /** A plugin that owns nothing that needs closing. */
  public CatalogPlugin(TableResolver resolver, TableReader reader) {
    this(resolver, reader, Optional.empty());
  }
}
