package dev.lake.runtime;

import static java.util.Objects.requireNonNull;

import dev.lake.core.TableReader;
import dev.lake.core.TableResolver;
import java.util.Optional;

/**
 * One catalog lake serves: how its names resolve to exact snapshots and how those snapshots are
 * read, plus the resource that owns its connections (closed with the other components). Adding a
 * catalog (e.g. Iceberg REST federation) is one more plugin in {@link LakeRuntime}.
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
