package dev.lake.lance;

import static java.util.Objects.requireNonNull;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import dev.lake.core.DataLocations;
import dev.lake.core.EntryResolver;
import dev.lake.core.ErrorCode;
import dev.lake.core.LakeException;
import dev.lake.core.Registry;
import dev.lake.core.Snapshot;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.nio.file.attribute.FileTime;
import java.time.Clock;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import java.util.function.ToLongFunction;
import org.apache.arrow.memory.BufferAllocator;

/**
 * Lance's share of catalog {@code lake}: a registry entry tagged {@code lance} → its current {@link
 * LanceSnapshot} (location, incarnation, latest version). {@link dev.lake.core.LakeCatalog} caches
 * resolutions for the registry freshness window; when that expires, the latest version of a local
 * dataset costs one stat of its {@code _versions} folder while the folder is unchanged (see {@link
 * #latestVersion}), instead of opening the dataset again. With the deployment's {@link
 * DataLocations}, an entry outside them fails with {@code PERMISSION_DENIED} naming the table
 * before anything there is read.
 */
final class LanceEntryResolver implements EntryResolver {
  /** Most local datasets whose latest version is kept. */
  static final int MAX_KEPT = 10_000;

  /**
   * How long after its last change a {@code _versions} folder's modification time is trusted to
   * name its content: a commit within the file system's timestamp granularity of the previous one
   * may leave the time unchanged, so a folder changed this recently is read again (as Git does with
   * "racily clean" files).
   */
  static final Duration SETTLED = Duration.ofSeconds(2);

  /**
   * Longest a kept version is served without opening the dataset, whatever the folder says: bounds
   * the staleness if a file system's times cannot be trusted at all.
   */
  static final Duration REREAD = Duration.ofMinutes(1);

  /** A dataset's latest version, read after its {@code _versions} folder had these attributes. */
  private record Seen(Object folderKey, FileTime modified, long version) {
    boolean describes(BasicFileAttributes folder) {
      return folderKey.equals(folder.fileKey()) && modified.equals(folder.lastModifiedTime());
    }
  }

  private final ToLongFunction<String> reader;
  private final Clock clock;
  private final Optional<DataLocations> locations;
  private final Cache<String, Seen> latest =
      Caffeine.newBuilder().maximumSize(MAX_KEPT).expireAfterWrite(REREAD).build();

  LanceEntryResolver(
      BufferAllocator allocator,
      Map<String, String> storageOptions,
      Optional<DataLocations> locations) {
    this(reader(allocator, storageOptions), Clock.systemUTC(), locations);
  }

  /** With the dataset read ({@code reader}: location → latest version) and clock given. */
  LanceEntryResolver(
      ToLongFunction<String> reader, Clock clock, Optional<DataLocations> locations) {
    this.reader = requireNonNull(reader, "reader is null");
    this.clock = requireNonNull(clock, "clock is null");
    this.locations = requireNonNull(locations, "locations is null");
  }

  private static ToLongFunction<String> reader(
      BufferAllocator allocator, Map<String, String> storageOptions) {
    requireNonNull(allocator, "allocator is null");
    Map<String, String> options =
        Map.copyOf(requireNonNull(storageOptions, "storageOptions is null"));
    return location -> LanceDatasets.latestVersion(location, allocator, options);
  }

  @Override
  public Snapshot resolve(Registry.Entry entry) {
    locations.ifPresent(l -> l.checkRead(entry.ref(), entry.location()));
    long version;
    try {
      version = latestVersion(entry.location());
    } catch (RuntimeException e) {
      throw new LakeException(
          ErrorCode.EXTERNAL_UNAVAILABLE,
          "Table " + entry.ref() + " is registered but cannot be read",
          e);
    }
    return new LanceSnapshot(entry.location(), entry.incarnation(), version);
  }

  /**
   * The dataset's latest version. A local dataset's {@code _versions} folder gains a file with
   * every commit (Lance never rewrites a manifest), so while the folder's identity and modification
   * time are those seen before the version was last read, that version is still the latest. The
   * attributes are taken before the read, so a commit racing with it shows as a change next time; a
   * remote dataset, a folder without a stable identity or one changed within {@link #SETTLED} is
   * read every time. A failure is never kept.
   */
  private long latestVersion(String location) {
    Optional<Path> versions = LanceTableReader.versionsDir(location);
    if (versions.isEmpty()) {
      return reader.applyAsLong(location);
    }
    BasicFileAttributes folder;
    try {
      folder = Files.readAttributes(versions.get(), BasicFileAttributes.class);
    } catch (IOException e) {
      return reader.applyAsLong(location); // Lance's own open reports what is wrong
    }
    Seen seen = latest.getIfPresent(location);
    if (seen != null && seen.describes(folder)) {
      return seen.version();
    }
    long version = reader.applyAsLong(location);
    boolean settled = folder.lastModifiedTime().toInstant().plus(SETTLED).isBefore(clock.instant());
    if (folder.fileKey() != null && settled) {
      latest.put(location, new Seen(folder.fileKey(), folder.lastModifiedTime(), version));
    } else {
      latest.invalidate(location);
    }
    return version;
  }

  @Override
  public boolean denotes(Registry.Entry entry, Snapshot sealed) {
    return sealed instanceof LanceSnapshot s
        && entry.incarnation().equals(s.incarnation())
        && entry.location().equals(s.location());
  }
}
