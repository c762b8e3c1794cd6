package dev.lake.engine;

import dev.lake.core.TableRef;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.arrow.c.ArrowArrayStream;
import org.apache.arrow.c.Data;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.ipc.ArrowReader;
import org.duckdb.DuckDBConnection;

/**
 * The Arrow inputs of one query on its own connection: each table's streams are exported through
 * the C stream interface and registered as connection-local temporary objects; a table read as
 * several streams gets a temporary {@code UNION ALL} view so DuckDB scans them in parallel; a table
 * the statement reads more than once is copied into a temporary table instead. Names are positional
 * ({@code <prefix>_t<i>[_s<j>]}): they are private to the connection, so the same statement renders
 * to the same SQL every time. Also holds leases (e.g. on cached tables) that end with the query.
 * {@link #close()} releases every C stream, which closes its Java reader.
 */
final class QueryInputs implements AutoCloseable {
  private final List<ArrowArrayStream> streams = new ArrayList<>();
  private final List<ArrowReader> unexported = new ArrayList<>();
  private final List<AutoCloseable> leases;
  private final Map<TableRef, String> views = new LinkedHashMap<>();

  /**
   * A query's tables: Arrow streams per table, and tables a {@link dev.lake.core.FileScanSource}
   * reads from files (its file-reading {@code SELECT} per table). The latter are not registered
   * here: the statement inlines them as subqueries ({@link QueryPlan#render}), so DuckDB binds each
   * once, and a subquery can be scanned any number of times (a re-read table needs no copy).
   */
  record Sources(Map<TableRef, List<ArrowReader>> streams, Map<TableRef, String> fileScans) {
    Sources {
      streams = java.util.Collections.unmodifiableMap(new LinkedHashMap<>(streams));
      fileScans = java.util.Collections.unmodifiableMap(new LinkedHashMap<>(fileScans));
    }
  }

  /** Arrow streams only; takes ownership of every reader and every lease, even when it fails. */
  QueryInputs(
      DuckDBConnection connection,
      String prefix,
      Map<TableRef, List<ArrowReader>> inputs,
      java.util.Set<TableRef> rereadTables,
      BufferAllocator allocator,
      List<AutoCloseable> leases) {
    this(connection, prefix, new Sources(inputs, Map.of()), rereadTables, allocator, leases);
  }

  /** Takes ownership of every reader in {@code sources} and every lease, even when it fails. */
  QueryInputs(
      DuckDBConnection connection,
      String prefix,
      Sources sources,
      java.util.Set<TableRef> rereadTables,
      BufferAllocator allocator,
      List<AutoCloseable> leases) {
    Map<TableRef, List<ArrowReader>> inputs = sources.streams();
    inputs.values().forEach(unexported::addAll);
    this.leases = new ArrayList<>(leases);
    try {
      int t = 0;
      for (Map.Entry<TableRef, List<ArrowReader>> e : inputs.entrySet()) {
        String view = prefix + "_t" + t++;
        StringBuilder union = new StringBuilder();
        List<String> names = new ArrayList<>();
        int s = 0;
        for (ArrowReader reader : e.getValue()) {
          String name = view + "_s" + s++;
          ArrowArrayStream stream = ArrowArrayStream.allocateNew(allocator);
          streams.add(stream);
          Data.exportArrayStream(allocator, reader, stream);
          unexported.remove(reader);
          connection.registerArrowStream(name, stream);
          names.add(name);
          union
              .append(union.length() == 0 ? "" : " UNION ALL ")
              .append("SELECT * FROM ")
              .append(name);
        }
        boolean reread = rereadTables.contains(e.getKey());
        if (names.size() == 1 && !reread) {
          views.put(e.getKey(), names.get(0)); // one stream: its own view is enough
          continue;
        }
        try (Statement st = connection.createStatement()) {
          // Engine-generated identifiers only; no client text. A table read more than once is
          // copied into a connection-local table (a stream can be consumed only once; DuckDB
          // spills it under the engine's memory limit).
          st.execute("CREATE TEMPORARY " + (reread ? "TABLE " : "VIEW ") + view + " AS " + union);
        }
        views.put(e.getKey(), view);
      }
    } catch (SQLException | RuntimeException ex) {
      close();
      throw EngineErrors.setupFailure("Cannot register query inputs", ex);
    }
  }

  /** The registered name of each streamed table. */
  Map<TableRef, String> views() {
    return views;
  }

  @Override
  public void close() {
    for (ArrowArrayStream s : streams) {
      // DuckDB releases a stream it read to the end; one it never read (EXPLAIN, a failed or
      // cancelled query) still owns its Java reader and must be released here.
      if (s.snapshot().release != 0) {
        s.release();
      }
      s.close();
    }
    streams.clear();
    for (ArrowReader r : unexported) {
      DuckDbExecution.closeQuietly(r);
    }
    unexported.clear();
    for (AutoCloseable lease : leases) {
      DuckDbExecution.closeQuietly(lease);
    }
    leases.clear();
  }
}
