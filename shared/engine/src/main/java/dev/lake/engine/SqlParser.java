package dev.lake.engine;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import dev.lake.core.ErrorCode;
import dev.lake.core.LakeException;
import java.io.IOException;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import org.duckdb.DuckDBConnection;

/**
 * DuckDB's own parser, reached through {@code json_serialize_sql} / {@code json_deserialize_sql} on
 * a private in-memory database that has no tables, no external access and a locked configuration.
 * The text is only ever passed as a bound parameter, never executed.
 *
 * <p>Calls are spread over a small pool of parser sessions (a connection and its prepared
 * statements). One input can break a session (DuckDB's driver closes a statement after an
 * out-of-memory error); such a session is discarded and replaced, so a hostile text costs one
 * failed parse and never poisons parsing for anyone else.
 */
final class SqlParser implements AutoCloseable {
  private static final ObjectMapper MAPPER = new ObjectMapper();

  /**
   * Characters of SQL text whose parse tree is kept (+1,024 per entry), shared by every parser in
   * the process: a tree is a pure function of the text, so the engine's plan and the result-reuse
   * verdict read the tree admission's parse produced instead of parsing the text again (one parse
   * per new text). A tree takes a few tens of times its text, so this keeps a few tens of MiB.
   */
  static final long CACHED_SQL_CHARS = 1L << 20;

  private static final Cache<String, JsonNode> TREES =
      Caffeine.newBuilder()
          .maximumWeight(CACHED_SQL_CHARS)
          .<String, JsonNode>weigher((sql, tree) -> sql.length() + 1024)
          .build();

  private final DuckDBConnection database;
  private final BlockingQueue<Session> idle;
  private final List<Session> all = new ArrayList<>();
  private boolean closed;

  SqlParser() {
    this(AdmissionConfig.defaults());
  }

  SqlParser(AdmissionConfig config) {
    try {
      database =
          (DuckDBConnection)
              new org.duckdb.DuckDBDriver().connect("jdbc:duckdb:", new Properties());
      try (Statement s = database.createStatement()) {
        s.execute("SET threads = 1");
        s.execute("SET memory_limit = '" + (config.parserMemoryBytes() >> 20) + "MiB'");
        s.execute("SET enable_external_access = false");
        s.execute("SET autoinstall_known_extensions = false");
        s.execute("SET autoload_known_extensions = false");
        s.execute("SET lock_configuration = true");
      }
    } catch (SQLException e) {
      throw new LakeException(ErrorCode.INTERNAL, "Cannot start the SQL parser", e);
    }
    idle = new ArrayBlockingQueue<>(config.parserConnections());
    for (int i = 0; i < config.parserConnections(); i++) {
      idle.add(Session.EMPTY);
    }
  }

  /** One parser connection with its prepared statements; replaced whole after any failure. */
  private record Session(
      DuckDBConnection connection,
      java.sql.PreparedStatement serialize,
      java.sql.PreparedStatement deserialize) {
    /** A pool slot whose session is opened on first use. */
    static final Session EMPTY = new Session(null, null, null);

    void close() {
      DuckDbExecution.closeQuietly(serialize);
      DuckDbExecution.closeQuietly(deserialize);
      DuckDbExecution.closeQuietly(connection);
    }
  }

  /** Work done on one session; a SQLException marks the session broken. */
  private interface Work<T> {
    T run(Session session) throws SQLException, IOException;
  }

  private <T> T withSession(Work<T> work) throws SQLException, IOException {
    Session session;
    try {
      session = idle.take();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new LakeException(ErrorCode.CANCELLED, "Interrupted while waiting for the SQL parser");
    }
    boolean healthy = false;
    try {
      if (session == Session.EMPTY) {
        session = open();
      }
      T result = work.run(session);
      healthy = true;
      return result;
    } finally {
      if (!healthy && session != Session.EMPTY) {
        forget(session);
        session.close();
        session = Session.EMPTY; // the next caller opens a fresh one
      }
      idle.add(session);
    }
  }

  private synchronized Session open() throws SQLException {
    if (closed) {
      throw new LakeException(ErrorCode.INTERNAL, "The SQL parser is closed");
    }
    DuckDBConnection c = database.duplicate();
    try {
      Session s =
          new Session(
              c,
              c.prepareStatement("SELECT json_serialize_sql(?::VARCHAR)"),
              c.prepareStatement("SELECT json_deserialize_sql(?::JSON)"));
      all.add(s);
      return s;
    } catch (SQLException e) {
      DuckDbExecution.closeQuietly(c);
      throw e;
    }
  }

  private synchronized void forget(Session session) {
    all.remove(session);
  }

  /**
   * The parse tree of {@code sql}: DuckDB's JSON, with {@code error} true on failure. A tree of a
   * SELECT is kept ({@link #TREES}) and shared: callers never modify it (they copy to rewrite).
   */
  JsonNode serialize(String sql) {
    JsonNode kept = TREES.getIfPresent(sql);
    if (kept != null) {
      return kept;
    }
    JsonNode tree = parse(sql);
    if (!tree.path("error").asBoolean(true)) {
      TREES.put(sql, tree);
    }
    return tree;
  }

  private JsonNode parse(String sql) {
    try {
      return withSession(
          s -> {
            s.serialize().setString(1, sql);
            try (ResultSet rs = s.serialize().executeQuery()) {
              rs.next();
              return MAPPER.readTree(rs.getString(1));
            }
          });
    } catch (SQLException | IOException e) {
      throw new LakeException(
          ErrorCode.INVALID_SQL, "SQL could not be parsed: " + firstLine(e.getMessage()), e);
    }
  }

  /** SQL text for one statement node (a {@code statements[i]} element). */
  String deserialize(JsonNode statement) {
    ObjectNode root = MAPPER.createObjectNode();
    root.put("error", false);
    ArrayNode statements = root.putArray("statements");
    statements.add(statement);
    try {
      String json = MAPPER.writeValueAsString(root);
      return withSession(
          s -> {
            s.deserialize().setString(1, json);
            try (ResultSet rs = s.deserialize().executeQuery()) {
              rs.next();
              return rs.getString(1);
            }
          });
    } catch (SQLException | IOException e) {
      throw new LakeException(ErrorCode.INTERNAL, "Cannot render the rewritten statement", e);
    }
  }

  /**
   * Evaluates an engine-built constant query (no table, no client text except parser-rendered
   * constant subtrees) on the private database; returns the first row as text, or null.
   */
  String[] evaluateRow(String constantSql) throws SQLException {
    try {
      return withSession(
          session -> {
            try (Statement s = session.connection().createStatement();
                ResultSet rs = s.executeQuery(constantSql)) {
              if (!rs.next()) {
                return null;
              }
              int n = rs.getMetaData().getColumnCount();
              String[] row = new String[n];
              for (int i = 0; i < n; i++) {
                row[i] = rs.getString(i + 1);
              }
              return row;
            }
          });
    } catch (IOException e) {
      throw new SQLException(e);
    }
  }

  static ObjectMapper mapper() {
    return MAPPER;
  }

  private static String firstLine(String message) {
    String m = String.valueOf(message);
    int nl = m.indexOf('\n');
    return nl < 0 ? m : m.substring(0, nl);
  }

  @Override
  public synchronized void close() {
    closed = true;
    all.forEach(Session::close);
    all.clear();
    DuckDbExecution.closeQuietly(database);
  }
}
