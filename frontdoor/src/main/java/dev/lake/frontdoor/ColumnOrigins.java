package dev.lake.frontdoor;

import static java.util.Objects.requireNonNull;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import dev.lake.core.AdmittedQuery;
import dev.lake.frontdoor.ColumnMetadata.ColumnOrigin;
import java.io.IOException;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Optional;
import java.util.Properties;
import org.duckdb.DuckDBDriver;

/**
 * Which result columns are plain columns of a lake table, read from DuckDB's own parse tree ({@code
 * json_serialize_sql}) of an admitted statement. Only the unambiguous shapes are named: one base
 * table in FROM, no CTE or set operation, and a select list that is either {@code *} or has one
 * item per result column, each item a bare column reference (optionally aliased to its own name).
 * Anything else (expressions, aggregates, joins, subqueries) has no origin, which is what "where
 * known" means; an origin is never guessed.
 */
final class ColumnOrigins {
  private static final ObjectMapper JSON = new ObjectMapper();

  /**
   * Characters of SQL text whose shape is kept (+64 per entry). A shape is a pure function of the
   * text (no tenant, grant or snapshot enters it), so one statement's repeated GetFlightInfo and
   * DoGet calls parse it once instead of twice per round trip.
   */
  static final long CACHED_SQL_CHARS = 4L << 20;

  private static final Cache<String, Shape> SHAPES =
      Caffeine.newBuilder()
          .maximumWeight(CACHED_SQL_CHARS)
          .<String, Shape>weigher((sql, shape) -> sql.length() + 64)
          .build();

  private static Connection parser;
  private static final java.util.concurrent.atomic.AtomicLong PARSES =
      new java.util.concurrent.atomic.AtomicLong();

  private ColumnOrigins() {}

  /**
   * What a statement's parse tree says about origins: its one base table (empty when the shape is
   * not one of the unambiguous ones), whether the select list is a plain {@code *}, and otherwise
   * per select item whether it is a bare column reference.
   */
  private record Shape(Optional<ColumnOrigin> table, boolean star, List<Boolean> bare) {
    static final Shape NONE = new Shape(Optional.empty(), false, List.of());

    Shape {
      requireNonNull(table, "table is null");
      bare = List.copyOf(requireNonNull(bare, "bare is null"));
    }

    List<Optional<ColumnOrigin>> origins(int columns) {
      if (table.isEmpty() || (!star && bare.size() != columns)) {
        return Collections.nCopies(columns, Optional.empty());
      }
      if (star) {
        return Collections.nCopies(columns, table);
      }
      List<Optional<ColumnOrigin>> out = new ArrayList<>(columns);
      for (boolean b : bare) {
        out.add(b ? table : Optional.empty());
      }
      return out;
    }
  }

  /** Per result column (by position) its table, when the statement makes it certain. */
  static List<Optional<ColumnOrigin>> of(AdmittedQuery query, int columns) {
    if (query.kind() != AdmittedQuery.Kind.SELECT || query.tables().size() != 1) {
      return Collections.nCopies(columns, Optional.empty());
    }
    // a text that could not be parsed right now (the loader returns null) is not cached
    Shape shape = SHAPES.get(query.sql(), sql -> parse(sql).map(ColumnOrigins::shape).orElse(null));
    return (shape == null ? Shape.NONE : shape).origins(columns);
  }

  private static Shape shape(JsonNode tree) {
    if (tree.path("error").asBoolean(false)) {
      return Shape.NONE;
    }
    JsonNode statements = tree.path("statements");
    JsonNode node = statements.path(0).path("node");
    if (statements.size() != 1
        || !node.path("type").asText().equals("SELECT_NODE")
        || node.path("cte_map").path("map").size() > 0) {
      return Shape.NONE;
    }
    JsonNode from = node.path("from_table");
    if (!from.path("type").asText().equals("BASE_TABLE")
        || from.path("catalog_name").asText().isEmpty()
        || from.path("schema_name").asText().isEmpty()) {
      return Shape.NONE;
    }
    Optional<ColumnOrigin> table =
        Optional.of(
            new ColumnOrigin(
                from.path("catalog_name").asText(),
                from.path("schema_name").asText(),
                from.path("table_name").asText()));
    JsonNode select = node.path("select_list");
    if (select.size() == 1 && plainStar(select.get(0))) {
      return new Shape(table, true, List.of());
    }
    List<Boolean> bare = new ArrayList<>();
    for (JsonNode item : select) {
      bare.add(bareColumn(item));
    }
    return new Shape(table, false, bare);
  }

  /** Statement texts handed to DuckDB's parser so far; for tests. */
  static long parsesForTest() {
    return PARSES.get();
  }

  private static boolean plainStar(JsonNode item) {
    return item.path("class").asText().equals("STAR")
        && item.path("relation_name").asText().isEmpty()
        && item.path("exclude_list").size() == 0
        && item.path("qualified_exclude_list").size() == 0
        && item.path("replace_list").size() == 0
        && item.path("rename_list").size() == 0
        && !item.path("columns").asBoolean(false)
        && item.path("expr").isNull();
  }

  private static boolean bareColumn(JsonNode item) {
    return item.path("class").asText().equals("COLUMN_REF");
  }

  /**
   * DuckDB's serialization of {@code sql} (with {@code error} true when it is not a SELECT), or
   * empty when the parser itself failed.
   */
  private static synchronized Optional<JsonNode> parse(String sql) {
    PARSES.incrementAndGet();
    try {
      if (parser == null) {
        Properties p = new Properties();
        p.setProperty("threads", "1");
        parser = new DuckDBDriver().connect("jdbc:duckdb:", p);
      }
      try (PreparedStatement s =
          parser.prepareStatement("SELECT json_serialize_sql(CAST(? AS VARCHAR))")) {
        s.setString(1, sql);
        try (ResultSet rs = s.executeQuery()) {
          if (!rs.next()) {
            return Optional.empty();
          }
          return Optional.of(JSON.readTree(rs.getString(1)));
        }
      }
    } catch (SQLException | IOException e) {
      return Optional.empty();
    }
  }
}
