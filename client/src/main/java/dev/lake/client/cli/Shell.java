package dev.lake.client.cli;

import dev.lake.client.LakeClientException;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.Optional;
import org.jline.reader.EndOfFileException;
import org.jline.reader.LineReader;
import org.jline.reader.LineReaderBuilder;
import org.jline.reader.UserInterruptException;
import org.jline.reader.impl.DefaultParser;
import org.jline.terminal.Terminal;
import org.jline.terminal.TerminalBuilder;

/**
 * The interactive SQL shell: statements may span lines and end with {@code ;}; {@code \q}, {@code
 * quit} or Ctrl-D (on an empty line) quits, {@code \?} prints help. Ctrl-C while a statement runs
 * cancels that statement and the shell goes on; Ctrl-C while typing drops the statement being
 * typed, as in psql. Typed text reaches the server as typed: JLine's backslash escapes and {@code
 * !} history expansion are off (SQL uses both). History lives in {@code ~/.lake_history}. A failing
 * statement prints one line and the shell goes on.
 */
final class Shell {
  static final String BANNER = "lake sql shell: end statements with ';', \\q quits, \\? helps.";
  static final String HELP =
      """
      End a statement with ';' to run it; it may span lines.
      Ctrl-C cancels the running statement, or drops the one being typed.
      \\q, quit or Ctrl-D quits; \\? prints this help.""";

  private final QueryRunner runner;
  private final boolean durable;

  Shell(QueryRunner runner, boolean durable) {
    this.runner = runner;
    this.durable = durable;
  }

  int run() throws IOException {
    try (Terminal terminal = TerminalBuilder.builder().system(true).build()) {
      return run(terminal, Optional.of(Path.of(System.getProperty("user.home"), ".lake_history")));
    }
  }

  /** Reads statements from {@code terminal} until {@code \q} or end of input. */
  int run(Terminal terminal, Optional<Path> history) {
    DefaultParser parser = new DefaultParser();
    parser.setEscapeChars(null);
    LineReaderBuilder builder =
        LineReaderBuilder.builder()
            .terminal(terminal)
            .appName("lake")
            .parser(parser)
            .option(LineReader.Option.DISABLE_EVENT_EXPANSION, true);
    history.ifPresent(h -> builder.variable(LineReader.HISTORY_FILE, h));
    LineReader reader = builder.build();
    PrintWriter out = terminal.writer();
    out.println(BANNER);
    out.flush();
    StringBuilder statement = new StringBuilder();
    while (true) {
      String line;
      try {
        line = reader.readLine(statement.isEmpty() ? "lake> " : "   -> ");
      } catch (UserInterruptException e) {
        statement.setLength(0);
        continue;
      } catch (EndOfFileException e) {
        return 0;
      }
      String command = line.strip();
      if (statement.isEmpty() && (command.equals("\\q") || command.equals("quit"))) {
        return 0;
      }
      if (statement.isEmpty() && command.equals("\\?")) {
        out.println(HELP);
        out.flush();
        continue;
      }
      statement.append(line).append('\n');
      if (!Statements.complete(statement.toString())) {
        continue;
      }
      for (String sql : Statements.split(statement.toString())) {
        if (!execute(sql, terminal, out)) {
          break;
        }
      }
      statement.setLength(0);
    }
  }

  /** Runs one statement, Ctrl-C cancelling it; false when it was cancelled. */
  private boolean execute(String sql, Terminal terminal, PrintWriter out) {
    Terminal.SignalHandler previous =
        terminal.handle(Terminal.Signal.INT, signal -> runner.cancel());
    try {
      runner.run(sql, OutputFormat.TABLE, Optional.empty(), durable);
      return true;
    } catch (LakeClientException e) {
      out.println(
          "lake: "
              + (runner.wasCancelled()
                  ? "CANCELLED: the statement was cancelled (Ctrl-C)"
                  : ClientCli.describe(e, Optional.of(runner.server()))));
    } catch (IOException | RuntimeException e) {
      out.println("lake: " + ClientCli.firstLine(String.valueOf(e.getMessage())));
    } finally {
      terminal.handle(Terminal.Signal.INT, previous);
      out.flush();
    }
    return !runner.wasCancelled();
  }
}
