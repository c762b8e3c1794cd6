package dev.lake.core;

import static java.util.Objects.requireNonNull;

import java.util.List;

/**
 * The one place lake quotes text it puts into SQL it writes itself (DuckDB's dialect, which is
 * standard SQL here): a delimited identifier doubles {@code "}, a string literal doubles {@code '}.
 * The result is always a single token, whatever the text holds, so a name or path from a catalog or
 * a file system can never end the token and add SQL of its own. User SQL is never built with these.
 */
public final class SqlQuoting {
  private SqlQuoting() {}

  /** {@code "text"} with every {@code "} doubled: a column, table or schema name. */
  public static String identifier(String text) {
    requireNonNull(text, "text is null");
    return '"' + text.replace("\"", "\"\"") + '"';
  }

  /** {@code 'text'} with every {@code '} doubled: a path, a setting's value, a constant. */
  public static String literal(String text) {
    requireNonNull(text, "text is null");
    return '\'' + text.replace("'", "''") + '\'';
  }

  /** A DuckDB list of string literals, e.g. {@code ['/a/', '/b/']}. */
  public static String literalList(List<String> texts) {
    StringBuilder sb = new StringBuilder("[");
    for (String t : texts) {
      sb.append(sb.length() == 1 ? "" : ", ").append(literal(t));
    }
    return sb.append(']').toString();
  }
}
