package dev.lake.engine;

import dev.lake.core.Bounds;

/**
 * Bounds of SQL admission, checked on the text before DuckDB parses it so that no single statement
 * can make parsing expensive. Every value is validated here; {@link #defaults()} admits all TPC-H
 * queries with a wide margin.
 *
 * @param maxSqlChars longest SQL text, in characters (default 1 Mi, 1 Ki .. 16 Mi)
 * @param maxNestingDepth deepest nesting of parentheses/brackets/braces (default 64, 8 .. 512)
 * @param maxListItems most items in one comma-separated list: a select list, an IN list, a VALUES
 *     row, function arguments (default 4,096, 16 .. 100,000)
 * @param parserConnections parser connections in the pool; a failed one is replaced (default 2, 1
 *     .. 16)
 * @param parserMemoryBytes {@code memory_limit} of the private parser database (default 256 MiB, 16
 *     MiB .. 4 GiB)
 */
public record AdmissionConfig(
    int maxSqlChars,
    int maxNestingDepth,
    int maxListItems,
    int parserConnections,
    long parserMemoryBytes) {
  public static final int DEFAULT_MAX_SQL_CHARS = 1 << 20;
  public static final int DEFAULT_MAX_NESTING_DEPTH = 64;
  public static final int DEFAULT_MAX_LIST_ITEMS = 4096;
  public static final int DEFAULT_PARSER_CONNECTIONS = 2;
  public static final long DEFAULT_PARSER_MEMORY_BYTES = 256L << 20;

  public AdmissionConfig {
    Bounds.check("maxSqlChars", maxSqlChars, 1024, 16 << 20);
    Bounds.check("maxNestingDepth", maxNestingDepth, 8, 512);
    Bounds.check("maxListItems", maxListItems, 16, 100_000);
    Bounds.check("parserConnections", parserConnections, 1, 16);
    Bounds.check("parserMemoryBytes", parserMemoryBytes, 16L << 20, 4L << 30);
  }

  public static AdmissionConfig defaults() {
    return new AdmissionConfig(
        DEFAULT_MAX_SQL_CHARS,
        DEFAULT_MAX_NESTING_DEPTH,
        DEFAULT_MAX_LIST_ITEMS,
        DEFAULT_PARSER_CONNECTIONS,
        DEFAULT_PARSER_MEMORY_BYTES);
  }
}
