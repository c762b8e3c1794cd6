package dev.lake.bench;

import java.util.Locale;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicLong;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Statement texts no server has seen before, one per run, for P3's never-seen-text sides: BI tools
 * send a new text for nearly every query (a generated comment, a changed filter value), so a cost
 * keyed by text is paid on every query there. Two kinds, each leaving the result unchanged:
 *
 * <ul>
 *   <li>{@code comment}: the text behind a unique leading comment (the statement is the same once
 *       parsed);
 *   <li>{@code literal}: a unique literal in the statement itself, so its parse tree and rendered
 *       text are new too: a trailing {@code LIMIT} far above the result's size, or for a statement
 *       that already ends with {@code LIMIT k}, {@code LIMIT k + 0 * n}.
 * </ul>
 *
 * Texts are unique per client process (a random prefix) and per run (a counter).
 */
final class FreshText {
  /** The side option naming the kind: {@code fresh=comment} or {@code fresh=literal}. */
  static final String OPTION = "fresh";

  private static final Pattern TRAILING_LIMIT =
      Pattern.compile("(?is)\\blimit\\s+(\\d+)\\s*;?\\s*$");
  private static final long PROCESS = ThreadLocalRandom.current().nextLong(1L << 40);
  private static final AtomicLong RUNS = new AtomicLong();

  private FreshText() {}

  /** {@code query} as run {@code n} of kind {@code kind} sends it. */
  static String of(String kind, String query, long n) {
    return switch (kind) {
      case "comment" -> String.format(Locale.ROOT, "/* run %d-%d */ %s", PROCESS, n, query);
      case "literal" -> {
        long unique = 1_000_000_000L + PROCESS % 1_000_000L * 1_000_000L + n;
        Matcher m = TRAILING_LIMIT.matcher(query);
        yield m.find()
            ? query.substring(0, m.start()) + "LIMIT " + m.group(1) + " + 0 * " + unique
            : query.stripTrailing().replaceAll(";$", "") + "\nLIMIT " + unique;
      }
      default -> throw new IllegalArgumentException("unknown fresh-text kind: " + kind);
    };
  }

  /** The text the next run of a side sends: its query, or a never-seen one when it asks. */
  static String next(ClientSpec.Side side) {
    String kind = side.options().get(OPTION);
    return kind == null ? side.query() : of(kind, side.query(), RUNS.incrementAndGet());
  }
}
