package dev.lake.lance;

import static java.util.Objects.requireNonNull;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.ipc.ArrowReader;
import org.lance.Dataset;
import org.lance.ReadOptions;
import org.lance.WriteDatasetBuilder;
import org.lance.WriteParams;

/** Writing and inspecting Lance datasets, for demo data, the CLI and tests. */
public final class LanceDatasets {
  private LanceDatasets() {}

  /**
   * Writes {@code reader} (which Lance closes) as a new version: appended, or replacing the
   * dataset's rows (creating it if needed). Returns the new version.
   */
  public static long write(
      String location, ArrowReader reader, BufferAllocator allocator, boolean append) {
    return write(location, reader, allocator, append, 0);
  }

  /** As {@link #write(String, ArrowReader, BufferAllocator, boolean)}; rows per file if > 0. */
  public static long write(
      String location,
      ArrowReader reader,
      BufferAllocator allocator,
      boolean append,
      int maxRowsPerFile) {
    return write(location, reader, allocator, append, maxRowsPerFile, Map.of());
  }

  /**
   * As {@link #write(String, ArrowReader, BufferAllocator, boolean, int)} with Lance object-store
   * settings ({@code storageOptions}) for remote locations such as {@code s3://bucket/t.lance}.
   */
  public static long write(
      String location,
      ArrowReader reader,
      BufferAllocator allocator,
      boolean append,
      int maxRowsPerFile,
      Map<String, String> storageOptions) {
    requireNonNull(location, "location is null");
    requireNonNull(reader, "reader is null");
    requireNonNull(storageOptions, "storageOptions is null");
    boolean exists = exists(location, allocator, storageOptions);
    WriteParams.WriteMode mode =
        append && exists
            ? WriteParams.WriteMode.APPEND
            : exists ? WriteParams.WriteMode.OVERWRITE : WriteParams.WriteMode.CREATE;
    WriteDatasetBuilder builder =
        Dataset.write()
            .allocator(allocator)
            .reader(reader)
            .uri(location)
            .mode(mode)
            .storageOptions(storageOptions);
    if (maxRowsPerFile > 0) {
      builder.maxRowsPerFile(maxRowsPerFile);
    }
    try (Dataset ds = builder.execute()) {
      return ds.version();
    }
  }

  /** The latest version of the dataset at {@code location}. */
  public static long latestVersion(String location, BufferAllocator allocator) {
    return latestVersion(location, allocator, Map.of());
  }

  /** The latest version of the dataset at {@code location}, with object-store settings. */
  public static long latestVersion(
      String location, BufferAllocator allocator, Map<String, String> storageOptions) {
    try (Dataset ds =
        Dataset.open()
            .allocator(allocator)
            .uri(location)
            .readOptions(new ReadOptions.Builder().setStorageOptions(storageOptions).build())
            .build()) {
      return ds.latestVersion();
    }
  }

  /** Whether a readable dataset exists at the local {@code location}. */
  public static boolean exists(String location) {
    Path versions = localPath(location).resolve("_versions");
    return Files.isDirectory(versions);
  }

  /**
   * Whether a readable dataset exists at {@code location}: its {@code _versions} directory when
   * local, an attempt to open it when remote (a missing dataset and an unreachable store both
   * answer false; a write then surfaces the store's own error).
   */
  public static boolean exists(
      String location, BufferAllocator allocator, Map<String, String> storageOptions) {
    if (LanceTableReader.versionsDir(location).isPresent()) {
      return exists(location);
    }
    try {
      latestVersion(location, allocator, storageOptions);
      return true;
    } catch (RuntimeException e) {
      return false;
    }
  }

  /**
   * Makes one version unreadable by deleting its manifest (both Lance manifest naming schemes are
   * handled). For tests of snapshot retention; local datasets only.
   */
  public static void removeVersion(String location, long version) {
    Path dir = localPath(location).resolve("_versions");
    String v1 = version + ".manifest";
    String v2 = manifestV2(version);
    try {
      boolean removed = Files.deleteIfExists(dir.resolve(v1));
      removed |= Files.deleteIfExists(dir.resolve(v2));
      if (!removed) {
        throw new IllegalArgumentException("version " + version + " has no manifest to remove");
      }
    } catch (IOException e) {
      throw new UncheckedIOException("cannot remove version " + version, e);
    }
  }

  /** Lance's V2 manifest file name: u64::MAX - version, zero-padded to 20 digits. */
  static String manifestV2(long version) {
    // 20 digits, zero-padded (no String.format: this runs on every query's retention check)
    String digits = Long.toUnsignedString(-1L - version);
    return "0".repeat(20 - digits.length()) + digits + ".manifest";
  }

  private static Path localPath(String location) {
    String l = location.startsWith("file://") ? location.substring("file://".length()) : location;
    return Path.of(l);
  }
}
