package dev.lake.iceberg;

import static java.util.Objects.requireNonNull;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import com.github.benmanes.caffeine.cache.RemovalCause;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.iceberg.io.FileIO;
import org.apache.iceberg.parquet.ParquetSchemaUtil;
import org.apache.parquet.hadoop.ParquetFileReader;
import org.apache.parquet.io.LocalInputFile;
import org.apache.parquet.schema.MessageType;

/**
 * Local copies of immutable Iceberg data and delete files, so DuckDB can read them with its own
 * Parquet reader from one directory it is confined to. A file of a table is never rewritten in
 * place (Iceberg writes new files), so a copy keyed by (table UUID, location, size) is never stale.
 * Every file, local or remote (S3), is copied through the table's own {@link FileIO} — for a
 * process with data locations a {@link ConfinedFileIO}, which refuses a location outside them
 * before anything touches it. Local files are never hard-linked: a link would need a stat of the
 * source first, and would raise its link count, which the data-location check reads as a possible
 * hard-link escape. Bounded by bytes (Caffeine weight, W-TinyLFU); loads are single-flight per key.
 * A query holds a {@link Lease} on each file it reads: an evicted copy is deleted when its last
 * lease ends, so the directory can exceed the bound by the files of running queries.
 */
final class DataFileCache implements AutoCloseable {
  private final Path directory;
  private final Cache<String, Entry> entries;
  private final AtomicInteger temp = new AtomicInteger();

  DataFileCache(Path directory, long maxBytes) {
    this.directory = requireNonNull(directory, "directory is null");
    try {
      Files.createDirectories(directory);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    this.entries =
        Caffeine.newBuilder()
            .maximumWeight(maxBytes)
            .<String, Entry>weigher((k, e) -> (int) Math.min(Integer.MAX_VALUE, e.bytes))
            .<String, Entry>removalListener((k, e, cause) -> evicted(e, cause))
            .executor(Runnable::run)
            .build();
  }

  Path directory() {
    return directory;
  }

  /**
   * A cached local file, whether its Parquet schema carries Iceberg field ids, and its own columns
   * ({@link FileColumns}: which of them DuckDB reads exactly by name).
   */
  static final class Entry {
    final Path path;
    final long bytes;
    final boolean hasFieldIds;
    final FileColumns columns;
    private final AtomicInteger refs = new AtomicInteger(1); // 1 = held by the cache
    private boolean released;

    Entry(Path path, long bytes, boolean hasFieldIds, FileColumns columns) {
      this.path = path;
      this.bytes = bytes;
      this.hasFieldIds = hasFieldIds;
      this.columns = columns;
    }

    boolean retain() {
      while (true) {
        int n = refs.get();
        if (n == 0) {
          return false;
        }
        if (refs.compareAndSet(n, n + 1)) {
          return true;
        }
      }
    }

    void release() {
      if (refs.decrementAndGet() == 0) {
        synchronized (this) {
          if (!released) {
            released = true;
            try {
              Files.deleteIfExists(path);
            } catch (IOException e) {
              // a leftover copy is harmless: its name is never reused for other content
            }
          }
        }
      }
    }
  }

  /** One query's hold on a cached file; close it when the query ends. */
  record Lease(Entry entry) implements AutoCloseable {
    Path path() {
      return entry.path;
    }

    boolean hasFieldIds() {
      return entry.hasFieldIds;
    }

    /** The file's own columns, from its footer (read once, when the copy was made). */
    FileColumns columns() {
      return entry.columns;
    }

    @Override
    public void close() {
      entry.release();
    }
  }

  /**
   * Leases the local copy of {@code location} (copying it through {@code io} on a miss). {@code
   * size} is the file size the table's metadata records; a fetched file of another size is refused.
   *
   * @throws UncheckedIOException if the file cannot be read
   */
  Lease acquire(String tableUuid, FileIO io, String location, long size) {
    String key = key(tableUuid, location, size);
    while (true) {
      Entry e = entries.get(key, k -> load(k, io, location, size));
      if (e.retain()) {
        return new Lease(e);
      }
      entries.asMap().remove(key, e); // evicted between get and retain: load again
    }
  }

  private Entry load(String key, FileIO io, String location, long size) {
    Path target = directory.resolve(key + ".parquet");
    Path tmp = directory.resolve(key + ".tmp" + temp.incrementAndGet());
    try {
      Files.deleteIfExists(tmp);
      try (InputStream in = io.newInputFile(location, size).newStream()) {
        Files.copy(in, tmp, StandardCopyOption.REPLACE_EXISTING);
      }
      if (Files.size(tmp) != size) {
        throw new IOException("the data file's size differs from the table metadata");
      }
      MessageType footer = footerSchema(tmp);
      Files.move(tmp, target, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
      return new Entry(target, size, ParquetSchemaUtil.hasIds(footer), FileColumns.of(footer));
    } catch (IOException e) {
      deleteQuietly(tmp);
      throw new UncheckedIOException(e);
    } catch (RuntimeException e) {
      deleteQuietly(tmp);
      throw e;
    }
  }

  /**
   * The file's Parquet schema: without Iceberg field ids Iceberg applies other rules (generic
   * reader); its columns decide whether it reads by name.
   */
  private static MessageType footerSchema(Path file) throws IOException {
    try (ParquetFileReader reader = ParquetFileReader.open(new LocalInputFile(file))) {
      return reader.getFooter().getFileMetaData().getSchema();
    }
  }

  private static String key(String tableUuid, String location, long size) {
    try {
      MessageDigest d = MessageDigest.getInstance("SHA-256");
      d.update((tableUuid + "\n" + size + "\n" + location).getBytes(StandardCharsets.UTF_8));
      return HexFormat.of().formatHex(d.digest());
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException(e);
    }
  }

  private static void evicted(Entry e, RemovalCause cause) {
    if (e != null && cause != RemovalCause.REPLACED) {
      e.release();
    }
  }

  private static void deleteQuietly(Path p) {
    try {
      Files.deleteIfExists(p);
    } catch (IOException e) {
      // best effort
    }
  }

  /** Cached bytes (for tests and metrics). */
  long weightedBytes() {
    return entries.policy().eviction().map(ev -> ev.weightedSize().orElse(0)).orElse(0L);
  }

  @Override
  public void close() {
    entries.invalidateAll();
    entries.cleanUp();
  }
}
