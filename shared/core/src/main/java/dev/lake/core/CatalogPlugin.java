package dev.lake.core;

import static java.util.Objects.requireNonNull;

import java.util.Optional;

/**
 * One catalog lake serves: how its names resolve to exact snapshots and how those snapshots are
 * read, plus the resource that owns its connections (closed with the other components). A table
 * format builds its catalog in {@link TableFormat#open}; the composition root never builds one by
 * hand.
 */
public record CatalogPlugin(
    TableResolver resolver, TableReader reader, Optional<AutoCloseable> owner) {
  public CatalogPlugin {
    requireNonNull(resolver, "resolver is null");
    requireNonNull(reader, "reader is null");
    requireNonNull(owner, "owner is null");
  }

  /** A plugin that owns nothing that needs closing. */
  public CatalogPlugin(TableResolver resolver, TableReader reader) {
    this(resolver, reader, Optional.empty());
  }
}
