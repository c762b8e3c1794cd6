package dev.lake.engine;

import static java.util.Objects.requireNonNull;

import dev.lake.core.AdmittedQuery;
import dev.lake.core.ErrorCode;
import dev.lake.core.LakeException;
import dev.lake.core.QueryEngine;
import dev.lake.core.QueryExecution;
import dev.lake.core.ScanRequest;
import dev.lake.core.Snapshot;
import dev.lake.core.SnapshotSet;
import dev.lake.core.TableReader;
import dev.lake.core.TableRef;
import java.io.IOException;
import java.nio.file.Files;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.ipc.ArrowReader;
import org.apache.arrow.vector.types.pojo.Schema;
import org.duckdb.DuckDBConnection;

/**
 * One hardened in-memory DuckDB database; each statement runs on its own duplicated connection over
 * Arrow streams of exactly the sealed snapshots. See docs/engine.md.
 */
public final class DuckDbQueryEngine implements QueryEngine {
  private final EngineConfig config;
  private final List<TableReader> readers;
  private final DuckDBConnection database;
  private final SqlParser parser = new SqlParser();
  private final BufferAllocator planAllocator = new RootAllocator();
  private final AtomicLong ids = new AtomicLong();

  public DuckDbQueryEngine(EngineConfig config, List<TableReader> readers) {
    this.config = requireNonNull(config, "config is null");
    this.readers = List.copyOf(requireNonNull(readers, "readers is null"));
    try {
      Files.createDirectories(config.tempDirectory());
      database =
          (DuckDBConnection)
              new org.duckdb.DuckDBDriver().connect("jdbc:duckdb:", new Properties());
      try (Statement s = database.createStatement()) {
        s.execute("SET memory_limit = '" + mib(config.memoryLimitBytes()) + "'");
        s.execute("SET threads = " + config.threads());
        s.execute("SET temp_directory = '" + quote(config.tempDirectory().toString()) + "'");
        s.execute("SET max_temp_directory_size = '" + mib(config.maxTempBytes()) + "'");
        s.execute("SET autoinstall_known_extensions = false");
        s.execute("SET autoload_known_extensions = false");
        s.execute("SET allow_community_extensions = false");
        s.execute("SET enable_external_access = false");
        s.execute("SET lock_configuration = true");
      }
    } catch (SQLException | IOException e) {
      parser.close();
      planAllocator.close();
      throw new LakeException(ErrorCode.INTERNAL, "Cannot start the DuckDB engine", e);
    }
  }

  private static String mib(long bytes) {
    return (bytes >> 20) + "MiB";
  }

  private static String quote(String s) {
    return s.replace("'", "''");
  }

  @Override
  public Schema plan(AdmittedQuery query, SnapshotSet snapshots) {
    StatementRewriter statement = StatementRewriter.parse(query, parser);
    Map<TableRef, Schema> schemas = schemas(query, snapshots);
    BufferAllocator child = planAllocator.newChildAllocator("plan", 0, Long.MAX_VALUE);
    Map<TableRef, List<ArrowReader>> inputs = new LinkedHashMap<>();
    schemas.forEach((ref, schema) -> inputs.put(ref, List.of(new EmptyReader(child, schema))));
    try (DuckDbExecution execution = open(statement, inputs, null, child, "lake_p")) {
      return execution.reader().getVectorSchemaRoot().getSchema();
    } catch (IOException e) {
      throw new LakeException(ErrorCode.QUERY_FAILED, "Cannot plan the statement", e);
    }
  }

  @Override
  public QueryExecution execute(
      AdmittedQuery query,
      List<Object> parameters,
      SnapshotSet snapshots,
      BufferAllocator allocator) {
    requireNonNull(parameters, "parameters is null");
    StatementRewriter statement = StatementRewriter.parse(query, parser);
    ScanAnalysis analysis = new ScanAnalysis(statement.statement());
    Map<TableRef, Schema> schemas = schemas(query, snapshots);
    BufferAllocator child =
        allocator.newChildAllocator("query-" + ids.incrementAndGet(), 0, allocator.getLimit());
    Map<TableRef, List<ArrowReader>> inputs = new LinkedHashMap<>();
    try {
      for (TableRef ref : query.tables()) {
        Snapshot snapshot = snapshots.resolve(ref);
        Schema schema = schemas.get(ref);
        ScanRequest request =
            new ScanRequest(
                analysis.columns(schema),
                Predicates.resolve(analysis.candidates(ref, schemas), schema, parser),
                config.batchSize(),
                config.scanParallelism());
        inputs.put(ref, List.copyOf(reader(snapshot).scan(ref, snapshot, request, child)));
      }
    } catch (RuntimeException e) {
      for (List<ArrowReader> list : inputs.values()) {
        list.forEach(DuckDbExecution::closeQuietly);
      }
      child.close();
      throw e;
    }
    return open(statement, inputs, parameters, child, "lake_q");
  }

  /** Opens a connection, registers {@code inputs} (owning them) and prepares the statement. */
  private DuckDbExecution open(
      StatementRewriter statement,
      Map<TableRef, List<ArrowReader>> inputs,
      List<Object> parameters,
      BufferAllocator child,
      String prefix) {
    DuckDBConnection connection;
    try {
      connection = database.duplicate();
    } catch (SQLException e) {
      for (List<ArrowReader> list : inputs.values()) {
        list.forEach(DuckDbExecution::closeQuietly);
      }
      child.close();
      throw new LakeException(ErrorCode.INTERNAL, "Cannot open a query connection", e);
    }
    QueryInputs registered;
    try {
      registered = new QueryInputs(connection, prefix + ids.incrementAndGet(), inputs, child);
    } catch (RuntimeException e) {
      DuckDbExecution.closeQuietly(connection);
      child.close();
      throw e;
    }
    String sql;
    try {
      sql = statement.render(registered.views(), parser);
    } catch (RuntimeException e) {
      DuckDbExecution.closeQuietly(connection);
      registered.close();
      child.close();
      throw e;
    }
    return DuckDbExecution.open(connection, sql, parameters, child, config.batchSize(), registered);
  }

  private Map<TableRef, Schema> schemas(AdmittedQuery query, SnapshotSet snapshots) {
    Map<TableRef, Schema> schemas = new LinkedHashMap<>();
    for (TableRef ref : query.tables()) {
      Snapshot snapshot = snapshots.resolve(ref);
      schemas.put(ref, reader(snapshot).schema(ref, snapshot));
    }
    return schemas;
  }

  private TableReader reader(Snapshot snapshot) {
    for (TableReader r : readers) {
      if (r.supports(snapshot)) {
        return r;
      }
    }
    throw new LakeException(
        ErrorCode.UNSUPPORTED, "No reader for " + snapshot.getClass().getSimpleName());
  }

  /** A fresh connection to the engine's database, for tests of the hardening. */
  DuckDBConnection connectionForTest() throws SQLException {
    return database.duplicate();
  }

  @Override
  public void close() {
    DuckDbExecution.closeQuietly(database);
    parser.close();
    planAllocator.close();
  }
}
