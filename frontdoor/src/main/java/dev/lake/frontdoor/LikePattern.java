package dev.lake.frontdoor;

import dev.lake.core.ErrorCode;
import dev.lake.core.LakeException;
import java.util.Arrays;

/**
 * A SQL LIKE pattern of a Flight SQL metadata filter: {@code %} matches any run, {@code _} one
 * character, {@code \} escapes the next character; matching ignores case. Matching simulates the
 * pattern as a set of positions (a Thompson-style NFA), so its cost is at most pattern length ×
 * name length whatever the input: {@code %%%%…%x} against a long name cannot backtrack. Patterns
 * longer than {@link #MAX_CHARS} are refused with INVALID_ARGUMENT.
 */
final class LikePattern {
  /** The longest filter pattern accepted (a table name is at most 128 characters). */
  static final int MAX_CHARS = 1024;

  private static final byte LITERAL = 0;
  private static final byte ONE = 1;
  private static final byte RUN_TOKEN = 2;

  private static final LikePattern ANY = new LikePattern(new char[1], new byte[] {RUN_TOKEN});

  /** Per token: the lower-case literal character (for {@link #LITERAL}). */
  private final char[] chars;

  /** Per token: {@link #LITERAL}, {@link #ONE} or {@link #RUN_TOKEN}. */
  private final byte[] kinds;

  private LikePattern(char[] chars, byte[] kinds) {
    this.chars = chars;
    this.kinds = kinds;
  }

  /** The compiled pattern; null (no filter) matches everything. */
  static LikePattern compile(String pattern) {
    if (pattern == null) {
      return ANY;
    }
    if (pattern.length() > MAX_CHARS) {
      throw new LakeException(
          ErrorCode.INVALID_ARGUMENT, "Filter pattern is longer than " + MAX_CHARS + " characters");
    }
    char[] chars = new char[pattern.length()];
    byte[] kinds = new byte[pattern.length()];
    int n = 0;
    for (int i = 0; i < pattern.length(); i++) {
      char c = pattern.charAt(i);
      if (c == '\\' && i + 1 < pattern.length()) {
        chars[n] = lower(pattern.charAt(++i));
        kinds[n++] = LITERAL;
      } else if (c == '%') {
        if (n == 0 || kinds[n - 1] != RUN_TOKEN) { // %% is %: fewer states, same language
          kinds[n++] = RUN_TOKEN;
        }
      } else if (c == '_') {
        kinds[n++] = ONE;
      } else {
        chars[n] = lower(c);
        kinds[n++] = LITERAL;
      }
    }
    return new LikePattern(Arrays.copyOf(chars, n), Arrays.copyOf(kinds, n));
  }

  /** Whether the whole of {@code text} matches. */
  boolean matches(String text) {
    int m = kinds.length;
    // live[i]: the first i tokens can match the input read so far
    boolean[] live = new boolean[m + 1];
    boolean[] next = new boolean[m + 1];
    live[0] = true;
    close(live);
    for (int p = 0; p < text.length(); p++) {
      char c = lower(text.charAt(p));
      Arrays.fill(next, false);
      boolean any = false;
      for (int i = 0; i < m; i++) {
        if (!live[i]) {
          continue;
        }
        switch (kinds[i]) {
          case RUN_TOKEN -> next[i] = true; // % consumes c and stays
          case ONE -> next[i + 1] = true;
          default -> next[i + 1] = chars[i] == c;
        }
        any |= next[i] || next[i + 1];
      }
      if (!any) {
        return false;
      }
      close(next);
      boolean[] t = live;
      live = next;
      next = t;
    }
    return live[m];
  }

  /** Adds the positions reachable without input: past a % that may match nothing. */
  private void close(boolean[] states) {
    for (int i = 0; i < kinds.length; i++) {
      if (states[i] && kinds[i] == RUN_TOKEN) {
        states[i + 1] = true;
      }
    }
  }

  private static char lower(char c) {
    return Character.toLowerCase(c);
  }

  @Override
  public String toString() {
    return "LikePattern[" + kinds.length + " tokens]";
  }
}
