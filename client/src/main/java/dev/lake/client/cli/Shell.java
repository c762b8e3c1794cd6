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
import org.jline.terminal.Terminal;
import org.jline.terminal.TerminalBuilder;

/**
 * The interactive SQL shell: statements may span lines and end with {@code ;}; {@code \q} (or
 * Ctrl-D) quits, Ctrl-C drops the statement being typed. History lives in {@code ~/.lake_history}.
 * A failing statement prints one line and the shell goes on.
 */
final class Shell {
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
    LineReaderBuilder builder = LineReaderBuilder.builder().terminal(terminal).appName("lake");
    history.ifPresent(h -> builder.variable(LineReader.HISTORY_FILE, h));
    LineReader reader = builder.build();
    PrintWriter out = terminal.writer();
    out.println("lake sql shell: end statements with ';', \\q quits.");
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
      if (statement.isEmpty() && (line.strip().equals("\\q") || line.strip().equals("quit"))) {
        return 0;
      }
      statement.append(line).append('\n');
      if (!Statements.complete(statement.toString())) {
        continue;
      }
      for (String sql : Statements.split(statement.toString())) {
        execute(sql, out);
      }
      statement.setLength(0);
    }
  }

  private void execute(String sql, PrintWriter out) {
    try {
      runner.run(sql, OutputFormat.TABLE, Optional.empty(), durable);
    } catch (LakeClientException e) {
      out.println("lake: " + ClientCli.describe(e));
    } catch (IOException | RuntimeException e) {
      out.println("lake: " + e.getMessage());
    }
    out.flush();
  }
}
