package dev.lake.engine;

import dev.lake.core.ErrorCode;
import dev.lake.core.LakeException;

/**
 * A linear pre-scan of SQL text, before DuckDB parses it: bounds the text length, the nesting depth
 * of {@code ( [ {} and the number of items of any one comma-separated list. It understands string
 * literals, quoted identifiers, dollar-quoted strings and comments only well enough not to count
 * what they contain; it decides nothing else (DuckDB's parse tree does).
 */
final class SqlBounds {
  private SqlBounds() {}

  /** Throws INVALID_ARGUMENT naming the first bound {@code sql} exceeds. */
  static void check(String sql, AdmissionConfig config) {
    if (sql.length() > config.maxSqlChars()) {
      throw exceeded(
          "SQL text is longer than " + config.maxSqlChars() + " characters (maxSqlChars)");
    }
    int max = config.maxNestingDepth();
    // items so far at each open nesting level; index 0 is the statement's top level
    int[] items = new int[max + 1];
    int depth = 0;
    int n = sql.length();
    int i = 0;
    while (i < n) {
      char c = sql.charAt(i);
      if (c == '\'' || c == '"') {
        i = skipQuoted(sql, i, c);
        continue;
      }
      if (c == '-' && i + 1 < n && sql.charAt(i + 1) == '-') {
        int eol = sql.indexOf('\n', i);
        i = eol < 0 ? n : eol + 1;
        continue;
      }
      if (c == '/' && i + 1 < n && sql.charAt(i + 1) == '*') {
        int end = sql.indexOf("*/", i + 2);
        i = end < 0 ? n : end + 2;
        continue;
      }
      if (c == '$') {
        i = skipDollarQuoted(sql, i);
        continue;
      }
      if (c == '(' || c == '[' || c == '{') {
        if (depth == max) {
          throw exceeded(
              "SQL nests parentheses/brackets deeper than "
                  + max
                  + " levels (maxNestingDepth); flatten the statement");
        }
        items[++depth] = 0;
      } else if (c == ')' || c == ']' || c == '}') {
        if (depth > 0) {
          depth--;
        }
      } else if (c == ',') {
        if (++items[depth] >= config.maxListItems()) {
          throw exceeded(
              "SQL has a list of more than "
                  + config.maxListItems()
                  + " items (maxListItems); split the statement or use a table");
        }
      }
      i++;
    }
  }

  /** Index after the literal or quoted identifier opening at {@code start} (doubled quotes). */
  private static int skipQuoted(String sql, int start, char quote) {
    int i = start + 1;
    int n = sql.length();
    while (i < n) {
      if (sql.charAt(i) == quote) {
        if (i + 1 < n && sql.charAt(i + 1) == quote) {
          i += 2;
          continue;
        }
        return i + 1;
      }
      i++;
    }
    return n;
  }

  /** Index after a {@code $tag$ ... $tag$} string opening at {@code start}, or after the '$'. */
  private static int skipDollarQuoted(String sql, int start) {
    int close = sql.indexOf('$', start + 1);
    if (close < 0) {
      return start + 1;
    }
    String tag = sql.substring(start, close + 1);
    for (int k = 1; k < tag.length() - 1; k++) {
      char t = tag.charAt(k);
      if (!(Character.isLetterOrDigit(t) || t == '_') || (k == 1 && Character.isDigit(t))) {
        return start + 1; // a parameter ($1) or not a tag: an ordinary character
      }
    }
    int end = sql.indexOf(tag, close + 1);
    return end < 0 ? sql.length() : end + tag.length();
  }

  private static LakeException exceeded(String message) {
    return new LakeException(ErrorCode.INVALID_ARGUMENT, message);
  }
}
