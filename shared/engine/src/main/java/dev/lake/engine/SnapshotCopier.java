package dev.lake.engine;

import dev.lake.core.ErrorCode;
import dev.lake.core.FileScanSource;
import dev.lake.core.LakeException;
import dev.lake.core.ScanRequest;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.LongConsumer;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.ipc.ArrowReader;
import org.duckdb.DuckDBConnection;

/**
 * Copies one snapshot projection into a native DuckDB table of schema {@code lake_cache} for {@link
 * SnapshotCache}, counting (and reserving through {@code reserve}) the Arrow bytes it reads. A
 * snapshot its reader can read as a file scan ({@link FileScanSource}, Iceberg) is copied by DuckDB
 * from the files ({@link FileScanCopy}: measured first, then reserved whole); others through the
 * reader's Arrow streams.
 */
final class SnapshotCopier {
  private final DuckDBConnection database;
  private final BufferAllocator allocator;
  private final LongConsumer reserve;
  private final AtomicLong ids = new AtomicLong();
  private final AtomicLong materializations = new AtomicLong();

  /** The statement of the copy in flight, so {@link #cancel()} can interrupt it. */
  private volatile Statement running;

  SnapshotCopier(DuckDBConnection database, BufferAllocator allocator, LongConsumer reserve) {
    this.database = database;
    this.allocator = allocator;
    this.reserve = reserve;
  }

  /**
   * A new table holding exactly {@code key}'s columns of its snapshot, or null if it is larger than
   * {@code maxBytes} (the copy stops as soon as it crosses). The bytes read are reserved while the
   * copy runs and returned when it ends; the caller owns the table.
   */
  SnapshotCache.Table copy(
      SnapshotCache.Key key, SnapshotCache.Source source, SnapshotCache cache, long maxBytes) {
    String name = SnapshotCache.SCHEMA + ".lake_c" + ids.incrementAndGet();
    ScanRequest request =
        new ScanRequest(key.columns(), List.of(), source.batchSize(), source.parallelism());
    if (source.reader() instanceof FileScanSource files) {
      Optional<FileScanCopy.Measure> measure = FileScanCopy.measure(source.schema(), key.columns());
      Optional<FileScanSource.FileScan> scan =
          measure.isEmpty()
              ? Optional.empty()
              : files.fileScan(source.ref(), key.snapshot(), request);
      if (scan.isPresent()) {
        return copyFiles(name, measure.get(), scan.get(), cache, maxBytes);
      }
    }
    BufferAllocator child = allocator.newChildAllocator("cache-" + name, 0, Long.MAX_VALUE);
    AtomicLong bytes = new AtomicLong(); // read, including a batch that crossed maxBytes
    AtomicLong reserved = new AtomicLong(); // reserved: the batches within maxBytes
    LongConsumer reserving =
        n -> {
          reserved.addAndGet(n);
          reserve.accept(n);
        };
    try {
      List<ArrowReader> counted = new ArrayList<>();
      for (ArrowReader r : source.reader().scan(source.ref(), key.snapshot(), request, child)) {
        counted.add(new CountingReader(child, r, bytes, maxBytes, reserving));
      }
      DuckDBConnection connection;
      try {
        connection = (DuckDBConnection) database.duplicate();
      } catch (SQLException e) {
        counted.forEach(DuckDbExecution::closeQuietly);
        throw new LakeException(ErrorCode.INTERNAL, "Cannot open a cache connection", e);
      }
      QueryInputs inputs = null;
      try {
        inputs =
            new QueryInputs(
                connection, "lake_m0", Map.of(source.ref(), counted), Set.of(), child, List.of());
        try (Statement st = connection.createStatement()) {
          running = st;
          st.execute(
              "CREATE TABLE " + name + " AS SELECT * FROM " + inputs.views().get(source.ref()));
        } finally {
          running = null;
        }
      } catch (SQLException e) {
        drop(name);
        if (bytes.get() > maxBytes) {
          return null;
        }
        throw new LakeException(ErrorCode.QUERY_FAILED, "Cannot cache the snapshot", e);
      } finally {
        // the connection first: DuckDB holds exported schemas until it closes
        DuckDbExecution.closeQuietly(connection);
        if (inputs != null) {
          inputs.close();
        }
      }
    } finally {
      reserve.accept(-reserved.get());
      DuckDbExecution.closeAllocator(child);
    }
    materializations.incrementAndGet();
    return cache.new Table(name, bytes.get());
  }

  /**
   * {@link #copy} of a file scan: measures it, then (if it fits {@code maxBytes}) reserves its
   * bytes and creates the table; the scan's leases end with the copy.
   */
  private SnapshotCache.Table copyFiles(
      String name,
      FileScanCopy.Measure measure,
      FileScanSource.FileScan scan,
      SnapshotCache cache,
      long maxBytes) {
    long reserved = 0;
    long bytes;
    try (Connection c = database.duplicate();
        Statement st = c.createStatement()) {
      running = st;
      bytes = measure.bytes(st, scan.sql());
      if (bytes > maxBytes) {
        return null;
      }
      reserve.accept(bytes);
      reserved = bytes;
      st.execute(FileScanCopy.create(name, scan.sql()));
    } catch (SQLException e) {
      drop(name);
      throw new LakeException(ErrorCode.QUERY_FAILED, "Cannot cache the snapshot", e);
    } finally {
      running = null;
      reserve.accept(-reserved);
      scan.leases().forEach(DuckDbExecution::closeQuietly);
    }
    materializations.incrementAndGet();
    return cache.new Table(name, bytes);
  }

  /** Interrupts the copy in flight, if any (it then fails and is dropped). */
  void cancel() {
    Statement st = running;
    if (st != null) {
      try {
        st.cancel();
      } catch (SQLException e) {
        // it ended meanwhile
      }
    }
  }

  /** How many copies were made since the engine started. */
  long materializations() {
    return materializations.get();
  }

  /** Drops table {@code name} (qualified); quiet when the database is closing. */
  void drop(String name) {
    try (Connection c = database.duplicate();
        Statement st = c.createStatement()) {
      st.execute("DROP TABLE IF EXISTS " + name);
    } catch (SQLException e) {
      // the database is closing; its memory goes with it
    }
  }
}
