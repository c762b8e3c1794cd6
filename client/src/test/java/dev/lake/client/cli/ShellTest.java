package dev.lake.client.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.lake.app.ClientTestLake;
import dev.lake.client.LakeClient;
import dev.lake.client.LakeClientConfig;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PipedInputStream;
import java.io.PipedOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.ipc.ArrowReader;
import org.jline.terminal.Terminal;
import org.jline.terminal.impl.ExternalTerminal;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The interactive shell as a person uses it, in process: keys go into a JLine terminal (the same
 * line discipline as a real one: Ctrl-C raises INT), the screen is what the shell and its results
 * printed, the statements run against a real lake.
 */
class ShellTest {
  private static final Duration WAIT = Duration.ofSeconds(60);

  private LakeClient client;
  private PipedOutputStream keys;
  private ByteArrayOutputStream screen;
  private Terminal terminal;
  private CompletableFuture<Integer> shell;

  @BeforeEach
  void open() throws Exception {
    ClientTestLake lake = SharedLake.get();
    client = LakeClient.connect(LakeClientConfig.of(lake.url(), lake.token()));
    keys = new PipedOutputStream();
    screen = new ByteArrayOutputStream();
    terminal =
        new ExternalTerminal(
            "test", "dumb", new PipedInputStream(keys, 1 << 16), screen, StandardCharsets.UTF_8);
    QueryRunner runner =
        new QueryRunner(client, new PrintStream(screen, true, StandardCharsets.UTF_8));
    Shell s = new Shell(runner, false);
    shell = CompletableFuture.supplyAsync(() -> s.run(terminal, Optional.empty()));
    awaitScreen(Shell.BANNER);
  }

  @AfterEach
  void close() throws Exception {
    shell.cancel(true);
    terminal.close();
    client.close();
  }

  @Test
  void backslashesAndBangs_reachTheServerAsTyped() throws Exception {
    // WHEN a statement with backslashes (a regex, a string) and != is typed
    type("SELECT 'a\\b' AS s, regexp_matches('x12', '\\d+') AS m, 1 != 2 AS ne;\n");

    // THEN the server saw the text as typed: the string keeps its backslash, the regex matches
    String shown = awaitScreen("(1 row)");
    assertThat(shown).contains("a\\b | true | true");
  }

  @Test
  void backslashQ_quitsWithExit0() throws Exception {
    type("\\q\n");

    assertThat(shell.get(WAIT.toSeconds(), TimeUnit.SECONDS)).isZero();
  }

  @Test
  void backslashQuestion_printsHelp_andTheShellGoesOn() throws Exception {
    type("\\?\n");
    awaitScreen("Ctrl-C cancels the running statement");

    type("SELECT 7 AS seven;\n");
    assertThat(awaitScreen("(1 row)")).contains("seven");
  }

  @Test
  void ctrlC_whileAStatementRuns_cancelsIt_andTheShellRunsTheNextOne() throws Exception {
    // GIVEN a statement that would run for days
    type("SELECT count(*) AS n FROM range(1000000000000000);\n");

    // WHEN the user presses Ctrl-C (again until it lands: the first may come before the statement
    // started, when it just clears an empty prompt)
    long deadline = System.nanoTime() + WAIT.toNanos();
    while (!screenText().contains("CANCELLED") && System.nanoTime() < deadline) {
      type("\u0003");
      Thread.sleep(300);
    }

    // THEN the statement ends as cancelled, the shell is still there and runs the next statement
    assertThat(screenText()).contains("lake: CANCELLED: the statement was cancelled (Ctrl-C)");
    assertThat(shell).isNotDone();
    type("SELECT 42 AS answer;\n");
    assertThat(awaitScreen("(1 row)")).contains("42");
    // and another session's fresh query runs at once: the server stopped the cancelled one
    try (ArrowReader r = client.query("SELECT count(*) AS n FROM range(1000)")) {
      assertThat(r.loadNextBatch()).isTrue();
      assertThat(((BigIntVector) r.getVectorSchemaRoot().getVector("n")).get(0)).isEqualTo(1000);
    }
  }

  @Test
  void ctrlC_whileTyping_dropsTheStatement_andCtrlDQuits() throws Exception {
    // GIVEN half a statement
    type("SELECT 'never' AS x\n");
    awaitScreen("   -> ");

    // WHEN Ctrl-C is pressed and a fresh prompt appears, then a new statement is typed
    int before = screenText().length();
    type("\u0003");
    awaitScreen(before, "lake> ");
    type("SELECT 'fresh' AS y;\n");

    // THEN only the new statement ran
    String shown = awaitScreen("(1 row)");
    assertThat(shown).contains("fresh").doesNotContain("never |").doesNotContain("syntax error");

    // and Ctrl-D on an empty line quits
    type("\u0004");
    assertThat(shell.get(WAIT.toSeconds(), TimeUnit.SECONDS)).isZero();
  }

  private void type(String text) throws IOException {
    keys.write(text.getBytes(StandardCharsets.UTF_8));
    keys.flush();
  }

  private String screenText() {
    return screen.toString(StandardCharsets.UTF_8);
  }

  private String awaitScreen(String text) throws InterruptedException {
    return awaitScreen(0, text);
  }

  /** Waits until the screen shows {@code text} after its first {@code from} characters. */
  private String awaitScreen(int from, String text) throws InterruptedException {
    long deadline = System.nanoTime() + WAIT.toNanos();
    while (!screenText().substring(from).contains(text)) {
      assertThat(System.nanoTime())
          .as("screen shows %s:%n%s", text, screenText())
          .isLessThan(deadline);
      assertThat(shell.isDone() && !screenText().contains(text)).as("shell ended early").isFalse();
      Thread.sleep(50);
    }
    return screenText();
  }
}
