package dev.lake.frontdoor;

import static java.util.Objects.requireNonNull;

import dev.lake.core.TableReader;
import dev.lake.core.TableResolver;

/**
 * One catalog lake serves: how its names resolve to exact snapshots and how those snapshots are
 * read. Adding a catalog (e.g. Iceberg REST federation) is one more plugin in {@link Wiring}.
 */
public record CatalogPlugin(TableResolver resolver, TableReader reader) {
  public CatalogPlugin {
    requireNonNull(resolver, "resolver is null");
    requireNonNull(reader, "reader is null");
  }
}
