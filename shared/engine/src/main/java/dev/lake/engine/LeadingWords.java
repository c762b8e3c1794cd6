package dev.lake.engine;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * The first words of a statement, skipping whitespace, comments and opening parentheses. Used only
 * to NAME a construct in an error message and to find where an EXPLAIN's inner statement starts;
 * every admission decision is made on DuckDB's parse tree.
 */
final class LeadingWords {
  private LeadingWords() {}

  /** One word and the offset just past it. */
  record Word(String text, int end) {}

  static List<Word> first(String sql, int count) {
    List<Word> words = new ArrayList<>();
    int i = 0;
    int n = sql.length();
    while (i < n && words.size() < count) {
      char c = sql.charAt(i);
      if (Character.isWhitespace(c) || c == '(') {
        i++;
      } else if (c == '-' && i + 1 < n && sql.charAt(i + 1) == '-') {
        int eol = sql.indexOf('\n', i);
        i = eol < 0 ? n : eol + 1;
      } else if (c == '/' && i + 1 < n && sql.charAt(i + 1) == '*') {
        int end = sql.indexOf("*/", i + 2);
        i = end < 0 ? n : end + 2;
      } else if (Character.isLetter(c) || c == '_') {
        int start = i;
        while (i < n && (Character.isLetterOrDigit(sql.charAt(i)) || sql.charAt(i) == '_')) {
          i++;
        }
        words.add(new Word(sql.substring(start, i).toUpperCase(Locale.ROOT), i));
      } else {
        break;
      }
    }
    return words;
  }
}
