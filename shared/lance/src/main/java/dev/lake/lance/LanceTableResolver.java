package dev.lake.lance;

import dev.lake.core.LakeCatalog;
import dev.lake.core.Registry;
import dev.lake.core.Snapshot;
import dev.lake.core.TableRef;
import dev.lake.core.TableResolver;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.apache.arrow.memory.BufferAllocator;

/**
 * Catalog {@code lake} serving Lance only (tests, benchmarks and embedders that assemble components
 * by hand): a {@link LakeCatalog} whose one format is Lance, so entries of other formats fail
 * closed exactly as in a process without them. A process builds its {@code lake} catalog over every
 * installed format through {@link dev.lake.core.TableFormats#open}. Unconfined: no {@link
 * dev.lake.core.DataLocations}.
 */
public final class LanceTableResolver implements TableResolver {
  private final LakeCatalog catalog;

  /** A resolver of local datasets (no object-store settings). */
  public LanceTableResolver(Registry registry, BufferAllocator allocator, Duration freshness) {
    this(registry, allocator, freshness, Map.of());
  }

  /** With the deployment's Lance object-store settings for {@code s3://} locations. */
  public LanceTableResolver(
      Registry registry,
      BufferAllocator allocator,
      Duration freshness,
      Map<String, String> storageOptions) {
    this.catalog =
        new LakeCatalog(
            registry,
            freshness,
            Map.of(
                LanceFormat.TAG,
                new LanceEntryResolver(allocator, storageOptions, Optional.empty())));
  }

  @Override
  public String catalog() {
    return catalog.catalog();
  }

  @Override
  public Snapshot resolve(TableRef ref) {
    return catalog.resolve(ref);
  }

  @Override
  public List<TableRef> listTables() {
    return catalog.listTables();
  }

  @Override
  public void verify(TableRef ref, Snapshot sealed) {
    catalog.verify(ref, sealed);
  }
}
