package dev.lake.lance;

import static java.util.Objects.requireNonNull;

import dev.lake.core.EntryResolver;
import dev.lake.core.ErrorCode;
import dev.lake.core.LakeException;
import dev.lake.core.Registry;
import dev.lake.core.Snapshot;
import java.util.Map;
import org.apache.arrow.memory.BufferAllocator;

/**
 * Lance's share of catalog {@code lake}: a registry entry tagged {@code lance} → its current {@link
 * LanceSnapshot} (location, incarnation, latest version). Uncached: {@link
 * dev.lake.core.LakeCatalog} caches resolutions.
 */
final class LanceEntryResolver implements EntryResolver {
  private final BufferAllocator allocator;
  private final Map<String, String> storageOptions;

  LanceEntryResolver(BufferAllocator allocator, Map<String, String> storageOptions) {
    this.allocator = requireNonNull(allocator, "allocator is null");
    this.storageOptions = Map.copyOf(requireNonNull(storageOptions, "storageOptions is null"));
  }

  @Override
  public Snapshot resolve(Registry.Entry entry) {
    long version;
    try {
      version = LanceDatasets.latestVersion(entry.location(), allocator, storageOptions);
    } catch (RuntimeException e) {
      throw new LakeException(
          ErrorCode.EXTERNAL_UNAVAILABLE,
          "Table " + entry.ref() + " is registered but cannot be read",
          e);
    }
    return new LanceSnapshot(entry.location(), entry.incarnation(), version);
  }

  @Override
  public boolean denotes(Registry.Entry entry, Snapshot sealed) {
    return sealed instanceof LanceSnapshot s
        && entry.incarnation().equals(s.incarnation())
        && entry.location().equals(s.location());
  }
}
