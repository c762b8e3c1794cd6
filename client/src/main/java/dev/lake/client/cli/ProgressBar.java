package dev.lake.client.cli;

import dev.lake.client.ProgressListener;
import java.io.PrintStream;
import java.time.Duration;
import java.time.Instant;

/**
 * A one-line progress bar on standard error, redrawn in place ({@code \r}) at most every 100 ms and
 * only when the fraction changed; {@link #done()} redraws it as finished ({@code done}) and ends
 * the line, {@link #end()} just ends the line (the work failed or stopped). Does nothing when
 * standard error is not a terminal, so logs and pipes stay clean.
 */
final class ProgressBar implements ProgressListener {
  private static final int WIDTH = 30;
  private final PrintStream err;
  private final String label;
  private final boolean enabled;
  private final Instant started = Instant.now();
  private Instant drawn = Instant.EPOCH;
  private int shown = -1;
  private boolean ended;

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
    if (!enabled || ended) {
      return;
    }
    int permille = (int) Math.round(Math.max(0, Math.min(1, fraction)) * 1000);
    Instant now = Instant.now();
    if (permille == shown || (permille < 1000 && Duration.between(drawn, now).toMillis() < 100)) {
      return;
    }
    shown = permille;
    drawn = now;
    draw(label, now);
  }

  private void draw(String text, Instant now) {
    int filled = shown * WIDTH / 1000;
    err.printf(
        "\r%s [%s%s] %5.1f%%  %ds ",
        text,
        "#".repeat(filled),
        " ".repeat(WIDTH - filled),
        shown / 10.0,
        Duration.between(started, now).toSeconds());
    err.flush();
  }

  /** The work is complete: the bar (if one was drawn) reads {@code done} at 100 %. */
  synchronized void done() {
    if (enabled && shown >= 0 && !ended) {
      ended = true;
      shown = 1000;
      String text = "done";
      draw(text + " ".repeat(Math.max(0, label.length() - text.length())), Instant.now());
      err.println();
      err.flush();
    }
  }

  /** Ends the bar's line as it stands (if one was drawn): the work failed or was stopped. */
  synchronized void end() {
    if (enabled && shown >= 0 && !ended) {
      ended = true;
      err.println();
      err.flush();
    }
  }
}
