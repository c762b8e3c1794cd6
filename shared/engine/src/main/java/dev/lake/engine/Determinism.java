package dev.lake.engine;

import com.fasterxml.jackson.databind.JsonNode;
import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import dev.lake.core.ErrorCode;
import dev.lake.core.LakeException;
import java.sql.SQLException;
import java.util.Iterator;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * Decides whether a statement's result depends only on its inputs (tables, bound parameters), so a
 * stored result may answer it again. Conservative: every function the parse tree calls must be one
 * whose every overload DuckDB itself declares {@code CONSISTENT} in {@code duckdb_functions()} (so
 * {@code random()}, {@code now()}, {@code current_date}, {@code uuid()}, {@code nextval()} and
 * every macro are never reused); a {@code USING SAMPLE} clause or a bare name that DuckDB would
 * bind to such a function ({@code current_timestamp}) also disqualifies. Verdicts are cached per
 * text.
 */
final class Determinism implements AutoCloseable {
  /** Keywords DuckDB binds without parentheses to the time or session of the query. */
  static final Set<String> SPECIAL_NAMES =
      Set.of(
          "current_timestamp",
          "current_time",
          "current_date",
          "localtime",
          "localtimestamp",
          "current_user",
          "current_role",
          "session_user",
          "user",
          "current_catalog",
          "current_schema");

  private final SqlParser parser = new SqlParser();
  private final Set<String> consistent;
  private final Set<String> inconsistent;
  private final Cache<String, Boolean> verdicts =
      Caffeine.newBuilder()
          .maximumWeight(4L << 20)
          .weigher((String k, Boolean v) -> k.length())
          .build();

  Determinism() {
    try {
      consistent = names("bool_and(stability = 'CONSISTENT')");
      inconsistent = names("NOT bool_and(coalesce(stability = 'CONSISTENT', false))");
    } catch (SQLException e) {
      parser.close();
      throw new LakeException(ErrorCode.INTERNAL, "Cannot read DuckDB's function catalog", e);
    }
  }

  private Set<String> names(String having) throws SQLException {
    String[] row =
        parser.evaluateRow(
            "SELECT string_agg(function_name, chr(10)) FROM (SELECT lower(function_name) AS"
                + " function_name FROM duckdb_functions() GROUP BY 1 HAVING "
                + having
                + ")");
    return row == null || row[0] == null ? Set.of() : Set.of(row[0].split("\n"));
  }

  /** True when {@code sql} (one admitted SELECT) is deterministic given its inputs. */
  boolean deterministic(String sql) {
    return verdicts.get(sql, this::judge);
  }

  private boolean judge(String sql) {
    JsonNode tree = parser.serialize(sql);
    return !tree.path("error").asBoolean(true) && clean(tree.path("statements"));
  }

  private boolean clean(JsonNode node) {
    if (node.isArray()) {
      for (JsonNode child : node) {
        if (!clean(child)) {
          return false;
        }
      }
      return true;
    }
    if (!node.isObject()) {
      return true;
    }
    String cls = node.path("class").asText("");
    if ((cls.equals("FUNCTION") || cls.equals("WINDOW"))
        && !consistent.contains(node.path("function_name").asText("").toLowerCase(Locale.ROOT))) {
      return false;
    }
    if (node.path("type").asText("").equals("TABLE_FUNCTION")) {
      return false; // table functions are volatile or never admitted; do not reason about them
    }
    if (cls.equals("COLUMN_REF") && node.path("column_names").size() == 1) {
      String name = node.path("column_names").get(0).asText("").toLowerCase(Locale.ROOT);
      if (SPECIAL_NAMES.contains(name) || inconsistent.contains(name)) {
        return false;
      }
    }
    JsonNode sample = node.get("sample");
    if (sample != null && !sample.isNull()) {
      return false;
    }
    for (Iterator<Map.Entry<String, JsonNode>> it = node.fields(); it.hasNext(); ) {
      if (!clean(it.next().getValue())) {
        return false;
      }
    }
    return true;
  }

  @Override
  public void close() {
    parser.close();
  }
}
