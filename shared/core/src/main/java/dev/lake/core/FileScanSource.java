package dev.lake.core;

import static java.util.Objects.requireNonNull;

import java.nio.file.Path;
import java.util.List;
import java.util.Optional;

/**
 * Implemented by a {@link TableReader} whose snapshots the engine's DuckDB can read directly from
 * local files with its own vectorized reader, instead of through Arrow streams. The reader, never
 * the client, chooses the files: a {@link FileScan} names only files under {@link
 * #readableDirectories()}, and the engine lets its DuckDB read nothing else.
 */
public interface FileScanSource {
  /**
   * Absolute directories that hold every file a {@link FileScan} of this reader may name; fixed for
   * the reader's lifetime (the engine confines DuckDB to them once, at startup).
   */
  List<Path> readableDirectories();

  /**
   * The scan of exactly {@code snapshot} as one DuckDB {@code SELECT} over files under {@link
   * #readableDirectories()}, with the columns of {@code request} (all, in table order, when it
   * names none) under the names and types {@link TableReader#schema} gives them; or empty when the
   * reader cannot express this scan exactly, and the engine then reads {@link TableReader#scan}.
   * Throws like {@code scan} (e.g. {@link ErrorCode#SNAPSHOT_GONE}).
   */
  Optional<FileScan> fileScan(TableRef ref, Snapshot snapshot, ScanRequest request);

  /**
   * A file-reading {@code SELECT} and what must stay alive while it runs (e.g. leases on cached
   * copies of the files); the engine closes every lease when the query ends.
   *
   * @param sql a DuckDB {@code SELECT} that only reads files (no client text in it); equal text
   *     must always read equal data (the files it names are immutable, and a name is never reused
   *     for other content), because the engine keeps statements prepared over it for the next
   *     execution of the same text
   * @param bytes the size of the files it names (the query's scanned bytes for this table; DuckDB
   *     may skip parts of them)
   * @param leases closed exactly once by the engine after the query, also when it fails
   */
  record FileScan(String sql, long bytes, List<AutoCloseable> leases) {
    public FileScan {
      requireNonNull(sql, "sql is null");
      if (bytes < 0) {
        throw new IllegalArgumentException("bytes must be >= 0: " + bytes);
      }
      leases = List.copyOf(requireNonNull(leases, "leases is null"));
    }
  }
}
