package dev.lake.engine;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.lake.core.ErrorCode;
import dev.lake.core.LakeException;
import java.io.IOException;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Properties;

/**
 * DuckDB's own parser, reached through {@code json_serialize_sql} / {@code json_deserialize_sql} on
 * a private in-memory database that has no tables, no external access and a locked configuration.
 * The text is only ever passed as a bound parameter, never executed.
 */
final class SqlParser implements AutoCloseable {
  private static final ObjectMapper MAPPER = new ObjectMapper();

  private final Connection connection;
  private final PreparedStatement serialize;
  private final PreparedStatement deserialize;

  SqlParser() {
    try {
      Properties props = new Properties();
      connection = new org.duckdb.DuckDBDriver().connect("jdbc:duckdb:", props);
      try (Statement s = connection.createStatement()) {
        s.execute("SET threads = 1");
        s.execute("SET memory_limit = '64MB'");
        s.execute("SET enable_external_access = false");
        s.execute("SET lock_configuration = true");
      }
      // prepared once and reused (calls are serialized): saves a prepare per parse
      serialize = connection.prepareStatement("SELECT json_serialize_sql(?::VARCHAR)");
      deserialize = connection.prepareStatement("SELECT json_deserialize_sql(?::JSON)");
    } catch (SQLException e) {
      throw new LakeException(ErrorCode.INTERNAL, "Cannot start the SQL parser", e);
    }
  }

  /** The parse tree of {@code sql}: DuckDB's JSON, with {@code error} true on failure. */
  synchronized JsonNode serialize(String sql) {
    try {
      serialize.setString(1, sql);
      try (ResultSet rs = serialize.executeQuery()) {
        rs.next();
        return MAPPER.readTree(rs.getString(1));
      }
    } catch (SQLException | IOException e) {
      throw new LakeException(ErrorCode.INVALID_SQL, "SQL could not be parsed", e);
    }
  }

  /** SQL text for one statement node (a {@code statements[i]} element). */
  synchronized String deserialize(JsonNode statement) {
    ObjectNode root = MAPPER.createObjectNode();
    root.put("error", false);
    ArrayNode statements = root.putArray("statements");
    statements.add(statement);
    try {
      deserialize.setString(1, MAPPER.writeValueAsString(root));
      try (ResultSet rs = deserialize.executeQuery()) {
        rs.next();
        return rs.getString(1);
      }
    } catch (SQLException | IOException e) {
      throw new LakeException(ErrorCode.INTERNAL, "Cannot render the rewritten statement", e);
    }
  }

  /**
   * Evaluates an engine-built constant query (no table, no client text except parser-rendered
   * constant subtrees) on the private database; returns the first row as text, or null.
   */
  synchronized String[] evaluateRow(String constantSql) throws SQLException {
    try (Statement s = connection.createStatement();
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
  }

  static ObjectMapper mapper() {
    return MAPPER;
  }

  @Override
  public synchronized void close() {
    try {
      serialize.close();
      deserialize.close();
      connection.close();
    } catch (SQLException e) {
      // closing an in-memory database cannot lose data; nothing to do
    }
  }
}
