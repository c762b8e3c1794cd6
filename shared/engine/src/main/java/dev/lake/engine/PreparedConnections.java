package dev.lake.engine;

import static java.util.Objects.requireNonNull;

import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.util.ArrayDeque;
import java.util.Iterator;
import java.util.LinkedHashMap;
import org.duckdb.DuckDBConnection;

/**
 * Idle connections of one memory pool's database, each keeping the statements prepared on it, so
 * that a repeated statement skips DuckDB's {@code duplicate()} and prepare (parse, bind, optimize,
 * physical plan: most of a small query's engine time).
 *
 * <p>Only statements without per-execution inputs may come from here: SQL that names nothing but
 * tables of the database itself (snapshot-cache copies, whose names are never reused) and files a
 * {@link dev.lake.core.FileScanSource} guarantees immutable, so equal text means equal data; never
 * a connection-local view of one execution's Arrow streams. A connection goes back only from an
 * execution that ran to its end without a cancel, deadline or failure ({@link
 * Lease#close(boolean)}), so it carries no interrupt, open result or temporary object into the next
 * one. DuckDB re-binds a reused statement by itself when the catalog changed since it was prepared.
 *
 * <p>Bounded: at most {@link #MAX_IDLE} idle connections per pool and {@link #MAX_STATEMENTS}
 * statements per connection (least recently used closed first).
 */
final class PreparedConnections implements AutoCloseable {
  /** Idle connections kept per pool (the front door runs at most 8 statements at once). */
  static final int MAX_IDLE = 8;

  /** Prepared statements kept per connection. */
  static final int MAX_STATEMENTS = 32;

  private final DuckDBConnection database;
  private final ArrayDeque<Idle> idle = new ArrayDeque<>(); // guarded by this
  private boolean closed; // guarded by this
  private final java.util.concurrent.atomic.AtomicLong prepares =
      new java.util.concurrent.atomic.AtomicLong();

  PreparedConnections(DuckDBConnection database) {
    this.database = requireNonNull(database, "database is null");
  }

  /** A connection and its statements, least recently used first. */
  private static final class Idle {
    final DuckDBConnection connection;
    final LinkedHashMap<String, PreparedStatement> statements =
        new LinkedHashMap<>(16, 0.75f, true);

    Idle(DuckDBConnection connection) {
      this.connection = connection;
    }

    void closeAll() {
      statements.values().forEach(DuckDbExecution::closeQuietly);
      statements.clear();
      DuckDbExecution.closeQuietly(connection);
    }
  }

  /**
   * One execution's connection and its prepared statement: from a pool (prepared now or earlier),
   * or {@link #unpooled} (closed when the execution ends, whatever happened).
   */
  static final class Lease {
    private final Idle owner;
    private final PreparedStatement statement;
    private final PreparedConnections home; // null: never goes back

    private Lease(Idle owner, PreparedStatement statement, PreparedConnections home) {
      this.owner = owner;
      this.statement = statement;
      this.home = home;
    }

    DuckDBConnection connection() {
      return owner.connection;
    }

    PreparedStatement statement() {
      return statement;
    }

    /**
     * Ends the lease: with {@code reusable} the connection goes back idle (its parameters cleared),
     * otherwise it is closed with all its statements. Call once, after closing the result.
     */
    void close(boolean reusable) {
      if (home == null) {
        owner.closeAll();
        return;
      }
      if (reusable) {
        try {
          statement.clearParameters();
        } catch (SQLException e) {
          reusable = false;
        }
      }
      if (!reusable || !home.giveBack(owner)) {
        owner.closeAll();
      }
    }
  }

  /**
   * {@code connection} (owned) with {@code sql} prepared on it, for an execution with inputs of its
   * own; both are closed when the lease ends. Closes the connection if preparing fails.
   */
  static Lease unpooled(DuckDBConnection connection, String sql) throws SQLException {
    Idle own = new Idle(connection);
    try {
      PreparedStatement statement = connection.prepareStatement(sql);
      own.statements.put(sql, statement);
      return new Lease(own, statement, null);
    } catch (SQLException | RuntimeException e) {
      own.closeAll();
      throw e;
    }
  }

  private synchronized boolean giveBack(Idle connection) {
    if (closed || idle.size() >= MAX_IDLE) {
      return false;
    }
    idle.addFirst(connection);
    return true;
  }

  /**
   * A connection with {@code sql} prepared: an idle one that already prepared it, else any idle
   * one, else a new duplicate of the database (failing like {@link EngineErrors#setupFailure});
   * throws DuckDB's own error if preparing fails.
   */
  Lease acquire(String sql) throws SQLException {
    requireNonNull(sql, "sql is null");
    Idle taken = take(sql);
    if (taken == null) {
      try {
        taken = new Idle(database.duplicate());
      } catch (SQLException e) {
        throw EngineErrors.setupFailure("Cannot open a query connection", e);
      }
    }
    try {
      PreparedStatement statement = taken.statements.get(sql);
      if (statement == null) {
        statement = taken.connection.prepareStatement(sql);
        prepares.incrementAndGet();
        taken.statements.put(sql, statement);
        if (taken.statements.size() > MAX_STATEMENTS) {
          Iterator<PreparedStatement> eldest = taken.statements.values().iterator();
          DuckDbExecution.closeQuietly(eldest.next());
          eldest.remove();
        }
      }
      return new Lease(taken, statement, this);
    } catch (SQLException | RuntimeException e) {
      taken.closeAll();
      throw e;
    }
  }

  private synchronized Idle take(String sql) {
    for (Iterator<Idle> it = idle.iterator(); it.hasNext(); ) {
      Idle candidate = it.next();
      if (candidate.statements.containsKey(sql)) {
        it.remove();
        return candidate;
      }
    }
    return idle.pollFirst();
  }

  /** Statements prepared here so far (tests). */
  long prepares() {
    return prepares.get();
  }

  /** Idle connections now (tests). */
  synchronized int idleCount() {
    return idle.size();
  }

  /** Closes the idle connections; leases still out close theirs when they end. */
  @Override
  public void close() {
    ArrayDeque<Idle> toClose;
    synchronized (this) {
      closed = true;
      toClose = new ArrayDeque<>(idle);
      idle.clear();
    }
    toClose.forEach(Idle::closeAll);
  }
}
