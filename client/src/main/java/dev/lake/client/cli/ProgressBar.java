package dev.lake.client.cli;

import dev.lake.client.ProgressListener;
import java.io.PrintStream;
import java.time.Duration;
import java.time.Instant;

/**
 * A one-line progress bar on standard error, redrawn in place ({@code \r}) at most every 100 ms and
 * only when the fraction changed; {@link #done()} ends the line. Does nothing when standard error
 * is not a terminal, so logs and pipes stay clean.
 */
final class ProgressBar implements ProgressListener {
  private static final int WIDTH = 30;
  private final PrintStream err;
  private final String label;
  private final boolean enabled;
  private final Instant started = Instant.now();
  private Instant drawn = Instant.EPOCH;
  private int shown = -1;

  ProgressBar(PrintStream err, String label, boolean enabled) {
    this.err = err;
    this.label = label;
    this.enabled = enabled;
  }

  /** A bar on System.err when it is a terminal. */
  static ProgressBar onStderr(String label) {
    return new ProgressBar(System.err, label, Terminals.stderr());
  }

  @Override
  public synchronized void progress(double fraction) {
    if (!enabled) {
      return;
    }
    int permille = (int) Math.round(Math.max(0, Math.min(1, fraction)) * 1000);
    Instant now = Instant.now();
    if (permille == shown || (permille < 1000 && Duration.between(drawn, now).toMillis() < 100)) {
      return;
    }
    shown = permille;
    drawn = now;
    int filled = permille * WIDTH / 1000;
    err.printf(
        "\r%s [%s%s] %5.1f%%  %ds ",
        label,
        "#".repeat(filled),
        " ".repeat(WIDTH - filled),
        permille / 10.0,
        Duration.between(started, now).toSeconds());
    err.flush();
  }

  /** Ends the bar's line (if one was drawn). */
  synchronized void done() {
    if (enabled && shown >= 0) {
      err.println();
      err.flush();
    }
  }
}
