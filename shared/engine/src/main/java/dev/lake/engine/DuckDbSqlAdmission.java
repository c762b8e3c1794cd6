package dev.lake.engine;

import com.fasterxml.jackson.databind.JsonNode;
import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import dev.lake.core.AdmittedQuery;
import dev.lake.core.ErrorCode;
import dev.lake.core.LakeException;
import dev.lake.core.SqlAdmission;
import dev.lake.core.TableRef;
import java.util.List;
import java.util.TreeSet;

/**
 * Read-only SQL admission decided on DuckDB's own parse tree ({@code json_serialize_sql}, which
 * serializes only SELECT statements and reports anything else as an error). Admits exactly one
 * SELECT / WITH ... SELECT / set operation / VALUES, or {@code EXPLAIN} of one; see
 * docs/sql-admission.md for every rule. Thread-safe; a linear pre-scan bounds the text ({@link
 * SqlBounds}) before DuckDB parses it on a pool of private parser sessions ({@link SqlParser}) that
 * replaces a session any input breaks.
 */
public final class DuckDbSqlAdmission implements SqlAdmission, AutoCloseable {
  private static final String ONLY = "only SELECT, WITH ... SELECT, VALUES and EXPLAIN may run";

  /** Names a refusal only (the decision is DuckDB's): PIVOT that is not a SELECT is dynamic. */
  private static final java.util.regex.Pattern DYNAMIC_PIVOT =
      java.util.regex.Pattern.compile("(?i)\\bPIVOT\\b");

  static final String DYNAMIC_PIVOT_MESSAGE =
      "PIVOT without an IN list is not allowed: it runs a query to find the new columns before"
          + " the statement; name the values, as in PIVOT t ON col IN ('a', 'b') USING sum(v)"
          + " or FROM t PIVOT (sum(v) FOR col IN ('a', 'b')), after listing them with SELECT"
          + " DISTINCT col FROM t ORDER BY 1";

  /** Characters of SQL text whose admission decision is cached (admission is a pure function). */
  static final long CACHED_SQL_CHARS = 16L << 20;

  private final AdmissionConfig config;
  private final SqlParser parser;
  // admitted statements by exact text; rejections are not cached (they throw)
  private final Cache<String, AdmittedQuery> admitted =
      Caffeine.newBuilder()
          .maximumWeight(CACHED_SQL_CHARS)
          .<String, AdmittedQuery>weigher((sql, q) -> sql.length() + 64)
          .build();

  /** Admission with {@link AdmissionConfig#defaults()}. */
  public DuckDbSqlAdmission() {
    this(AdmissionConfig.defaults());
  }

  public DuckDbSqlAdmission(AdmissionConfig config) {
    this.config = java.util.Objects.requireNonNull(config, "config is null");
    this.parser = new SqlParser(config);
  }

  @Override
  public AdmittedQuery admit(String sql) {
    if (sql == null || sql.isBlank()) {
      throw new LakeException(ErrorCode.INVALID_SQL, "SQL text is empty");
    }
    AdmittedQuery cached = admitted.getIfPresent(sql);
    if (cached != null) {
      return cached;
    }
    SqlBounds.check(sql, config); // linear and cheap: before DuckDB spends anything on the text
    return admitted.get(sql, this::decide);
  }

  private AdmittedQuery decide(String sql) {
    JsonNode tree = parser.serialize(sql);
    if (!tree.path("error").asBoolean(true)) {
      java.util.SortedSet<TableRef> tables = checkSingle(tree);
      // the same parse names the result columns' tables (the front door's column metadata)
      return new AdmittedQuery(
          sql,
          AdmittedQuery.Kind.SELECT,
          tables,
          OriginShapes.of(tree.path("statements").get(0), tables));
    }
    List<LeadingWords.Word> words = LeadingWords.first(sql, 6);
    if (!words.isEmpty() && words.get(0).text().equals("EXPLAIN")) {
      return admitExplain(sql, words);
    }
    throw rejection(tree, words, sql, 0);
  }

  /**
   * EXPLAIN: DuckDB does not serialize it, so the text after the EXPLAIN keyword must itself parse
   * as exactly one admissible SELECT. EXPLAIN ANALYZE runs the query and reports host timings, so
   * it is rejected.
   */
  private AdmittedQuery admitExplain(String sql, List<LeadingWords.Word> words) {
    if (words.size() > 1 && words.get(1).text().equals("ANALYZE")) {
      throw new LakeException(
          ErrorCode.SQL_NOT_ALLOWED, "EXPLAIN ANALYZE is not allowed; use EXPLAIN");
    }
    String inner = sql.substring(words.get(0).end());
    JsonNode tree = parser.serialize(inner);
    if (tree.path("error").asBoolean(true)) {
      throw rejection(tree, LeadingWords.first(inner, 6), sql, words.get(0).end());
    }
    return new AdmittedQuery(sql, AdmittedQuery.Kind.EXPLAIN, checkSingle(tree));
  }

  private static java.util.SortedSet<TableRef> checkSingle(JsonNode tree) {
    JsonNode statements = tree.path("statements");
    if (statements.size() != 1) {
      throw new LakeException(
          ErrorCode.INVALID_SQL, "Exactly one statement is allowed, found " + statements.size());
    }
    return new TreeSet<>(TreeChecker.check(statements.get(0)));
  }

  /**
   * Why {@code tree} (the parse of {@code sql} from character {@code start} on) is refused; a
   * syntax error names where it is in the client's text.
   */
  private static LakeException rejection(
      JsonNode tree, List<LeadingWords.Word> words, String sql, int start) {
    String type = tree.path("error_type").asText();
    String message = tree.path("error_message").asText();
    if (message.contains("locking clause")) {
      return new LakeException(
          ErrorCode.SQL_NOT_ALLOWED, "Locking clauses (FOR UPDATE/SHARE) are not allowed");
    }
    if (type.equals("parser")) {
      return new LakeException(
          ErrorCode.INVALID_SQL, "SQL does not parse: " + message + where(tree, sql, start));
    }
    if (message.startsWith("Only SELECT statements")) {
      String first = words.isEmpty() ? "" : words.get(0).text();
      if (first.equals("PIVOT") || DYNAMIC_PIVOT.matcher(sql).find()) {
        // DuckDB plans a PIVOT without IN list as a query for the values, then the pivot
        return new LakeException(ErrorCode.SQL_NOT_ALLOWED, DYNAMIC_PIVOT_MESSAGE);
      }
      if (first.equals("SELECT")
          || first.equals("WITH")
          || first.equals("FROM")
          || first.equals("VALUES")) {
        return new LakeException(
            ErrorCode.SQL_NOT_ALLOWED,
            "Only one read-only statement is allowed; this text holds a statement that is not a"
                + " SELECT");
      }
      return new LakeException(
          ErrorCode.SQL_NOT_ALLOWED, AdmissionRules.construct(words) + " is not allowed: " + ONLY);
    }
    return new LakeException(ErrorCode.INVALID_SQL, "SQL is not admissible: " + message);
  }

  @Override
  public void close() {
    parser.close();
  }

  /**
   * " (line L, column C)" for DuckDB's parser {@code position} (code points into the parsed text,
   * which starts at character {@code start} of {@code sql}; both 1-based in the client's text), or
   * "" when DuckDB gave none that lies inside the text.
   */
  static String where(JsonNode tree, String sql, int start) {
    int offset;
    try {
      offset = Integer.parseInt(tree.path("position").asText(""));
      if (offset < 0 || offset > sql.codePointCount(start, sql.length())) {
        return "";
      }
    } catch (NumberFormatException e) {
      return "";
    }
    String before = sql.substring(0, sql.offsetByCodePoints(start, offset));
    int lineStart = before.lastIndexOf('\n') + 1;
    long line = before.chars().filter(c -> c == '\n').count() + 1;
    return " (line "
        + line
        + ", column "
        + (before.codePointCount(lineStart, before.length()) + 1)
        + ")";
  }
}
