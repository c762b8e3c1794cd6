package dev.lake.engine;

import static java.util.Objects.requireNonNull;

import dev.lake.core.ErrorCode;
import dev.lake.core.LakeException;
import dev.lake.core.SqlQuoting;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;
import java.util.Properties;
import org.apache.arrow.memory.BufferAllocator;
import org.duckdb.DuckDBConnection;

/**
 * One hardened in-memory DuckDB database with its own {@code memory_limit}, spill directory and
 * snapshot cache: a memory pool of the engine (docs/engine.md, "Memory pools"). DuckDB's buffer
 * manager belongs to a database, so a statement exhausting one pool cannot fail a statement of
 * another. Statements run on duplicated connections of {@link #database()}.
 */
final class EnginePool implements AutoCloseable {
  private final DuckDBConnection database;
  private final EngineGauge gauge;
  private final SnapshotCache snapshotCache;
  private final PreparedConnections statements;

  /**
   * Opens the database: {@code memoryBytes} of memory, {@code tempBytes} of spill in {@code
   * tempDirectory} (created; one directory per database, DuckDB names its spill files alike in
   * every database), a snapshot cache drawing on {@code cacheBudget} (null = none), external access
   * only to {@code readable} directories, configuration locked.
   */
  EnginePool(
      long memoryBytes,
      long tempBytes,
      Path tempDirectory,
      int threads,
      List<String> readable,
      CacheBudget cacheBudget,
      BufferAllocator cacheAllocator,
      SnapshotCacheSettings cacheSettings) {
    requireNonNull(tempDirectory, "tempDirectory is null");
    requireNonNull(readable, "readable is null");
    try {
      Files.createDirectories(tempDirectory);
      Properties properties = new Properties();
      // streamed results: a query yields its first batch before its last row is computed, and
      // results never sit materialized in native memory (duplicated connections inherit this)
      properties.setProperty(org.duckdb.DuckDBDriver.JDBC_STREAM_RESULTS, "true");
      database =
          (DuckDBConnection) new org.duckdb.DuckDBDriver().connect("jdbc:duckdb:", properties);
    } catch (SQLException | IOException e) {
      throw new LakeException(ErrorCode.INTERNAL, "Cannot start the DuckDB engine", e);
    }
    try {
      try (Statement s = database.createStatement()) {
        s.execute("SET memory_limit = '" + mib(memoryBytes) + "'");
        s.execute("SET threads = " + threads);
        s.execute("SET temp_directory = " + SqlQuoting.literal(tempDirectory.toString()));
        s.execute("SET max_temp_directory_size = '" + mib(tempBytes) + "'");
        s.execute("CREATE SCHEMA " + SnapshotCache.SCHEMA);
        s.execute("SET autoinstall_known_extensions = false");
        s.execute("SET autoload_known_extensions = false");
        s.execute("SET allow_community_extensions = false");
        if (!readable.isEmpty()) {
          // only the directories of readers' own file scans (FileScanSource); clients never name
          // files (admission), and external access is off for everything else
          s.execute("SET allowed_directories = " + SqlQuoting.literalList(readable));
          s.execute("SET parquet_metadata_cache = true"); // those files never change
        }
        // DuckDB's optimizers stay as shipped: turning its build/probe swap off (tried for TPC-H
        // Q10) made joins hash their larger input, e.g. all of lineitem in Q5 (docs/bench.md)
        s.execute("SET enable_external_access = false");
        s.execute("SET lock_configuration = true");
      }
      gauge = new EngineGauge(database.duplicate());
    } catch (SQLException e) {
      DuckDbExecution.closeQuietly(database);
      throw new LakeException(ErrorCode.INTERNAL, "Cannot start the DuckDB engine", e);
    }
    statements = new PreparedConnections(database);
    snapshotCache =
        cacheBudget != null
            ? new SnapshotCache(database, cacheAllocator, cacheBudget, cacheSettings)
            : null;
  }

  private static String mib(long bytes) {
    return (bytes >> 20) + "MiB";
  }

  /** The database; statements run on {@link DuckDBConnection#duplicate() duplicates}. */
  DuckDBConnection database() {
    return database;
  }

  /** Samples this pool's memory and spill (a statement's figures cover its pool only). */
  EngineGauge gauge() {
    return gauge;
  }

  /** Idle connections with their prepared statements (statements without inputs of their own). */
  PreparedConnections statements() {
    return statements;
  }

  /** This pool's snapshot cache, or null when the cache is off. */
  SnapshotCache snapshotCache() {
    return snapshotCache;
  }

  /** Stops the cache (waiting for a copy in flight), idle connections, the gauge, the database. */
  @Override
  public void close() {
    if (snapshotCache != null) {
      snapshotCache.close();
    }
    statements.close();
    gauge.close();
    DuckDbExecution.closeQuietly(database);
  }
}
