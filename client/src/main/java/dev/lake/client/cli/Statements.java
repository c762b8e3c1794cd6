package dev.lake.client.cli;

import java.util.ArrayList;
import java.util.List;

/**
 * Splits SQL text into statements at semicolons that are outside string literals, quoted
 * identifiers and comments ({@code --} to the end of the line, {@code /* … *}{@code /}). Blank
 * statements are dropped; the text of each statement is kept verbatim (trimmed).
 */
final class Statements {
  private Statements() {}

  /** The complete statements of {@code text}; a trailing part without {@code ;} is included. */
  static List<String> split(String text) {
    Scan scan = scan(text);
    List<String> out = new ArrayList<>(scan.statements);
    if (!scan.rest.isBlank()) {
      out.add(scan.rest.strip());
    }
    return out;
  }

  /** Whether {@code text} ends with a complete statement (a {@code ;} outside quotes/comments). */
  static boolean complete(String text) {
    Scan scan = scan(text);
    return !scan.statements.isEmpty() && scan.rest.isBlank() && !scan.inside;
  }

  private record Scan(List<String> statements, String rest, boolean inside) {}

  private static Scan scan(String text) {
    List<String> statements = new ArrayList<>();
    StringBuilder current = new StringBuilder();
    char quote = 0;
    boolean lineComment = false;
    boolean blockComment = false;
    for (int i = 0; i < text.length(); i++) {
      char c = text.charAt(i);
      char next = i + 1 < text.length() ? text.charAt(i + 1) : 0;
      if (lineComment) {
        lineComment = c != '\n';
      } else if (blockComment) {
        if (c == '*' && next == '/') {
          blockComment = false;
          current.append(c);
          c = next;
          i++;
        }
      } else if (quote != 0) {
        if (c == quote) {
          quote = 0;
        }
      } else if (c == '\'' || c == '"') {
        quote = c;
      } else if (c == '-' && next == '-') {
        lineComment = true;
      } else if (c == '/' && next == '*') {
        blockComment = true;
      } else if (c == ';') {
        if (!current.toString().isBlank()) {
          statements.add(current.toString().strip());
        }
        current.setLength(0);
        continue;
      }
      current.append(c);
    }
    return new Scan(statements, current.toString(), quote != 0 || blockComment);
  }
}
