package dev.lake.client.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

class ProgressBarTest {
  private final ByteArrayOutputStream err = new ByteArrayOutputStream();
  private final ProgressBar bar =
      new ProgressBar(new PrintStream(err, true, StandardCharsets.UTF_8), "running", true);

  private String lastLine() {
    String text = err.toString(StandardCharsets.UTF_8);
    String[] drawn = text.split("\r");
    return drawn[drawn.length - 1];
  }

  @Test
  void done_redrawsTheBarAsDoneAtFullWidth_andEndsTheLine() {
    bar.progress(0.4);

    bar.done();

    assertThat(lastLine())
        .startsWith("done    [##############################] 100.0%")
        .endsWith("\n");
  }

  @Test
  void end_leavesTheBarAsItStood_andLaterCallsDrawNothing() {
    bar.progress(0.5);

    bar.end();
    bar.progress(0.9);
    bar.done();

    assertThat(lastLine())
        .startsWith("running [###############               ]  50.0%")
        .endsWith("\n");
    assertThat(err.toString(StandardCharsets.UTF_8).chars().filter(c -> c == '\n')).hasSize(1);
  }

  @Test
  void withoutATerminal_nothingIsDrawn() {
    ProgressBar off =
        new ProgressBar(new PrintStream(err, true, StandardCharsets.UTF_8), "running", false);

    off.progress(0.5);
    off.done();

    assertThat(err.size()).isZero();
  }
}
