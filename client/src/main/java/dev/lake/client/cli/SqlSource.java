package dev.lake.client.cli;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.List;
import picocli.CommandLine.Option;

/** Where the SQL comes from: {@code -e SQL}, {@code -f FILE}, or (neither) standard input. */
final class SqlSource {
  @Option(
      names = {"-e", "--execute"},
      paramLabel = "SQL",
      description = "The statement(s) to run.")
  String execute;

  @Option(
      names = {"-f", "--file"},
      paramLabel = "FILE",
      description = "A file of statements ended by ';'.")
  Path file;

  /** Whether the command got SQL through a flag. */
  boolean given() {
    return execute != null || file != null;
  }

  /** The statements of the flag, or of {@code stdin} when no flag was given. */
  List<String> statements(InputStream stdin) throws IOException {
    if (execute != null && file != null) {
      throw new IllegalArgumentException("give either -e SQL or -f FILE, not both");
    }
    String text =
        execute != null
            ? execute
            : file != null ? read(file) : new String(stdin.readAllBytes(), StandardCharsets.UTF_8);
    List<String> statements = Statements.split(text);
    if (statements.isEmpty()) {
      throw new IllegalArgumentException("no SQL statement given (use -e SQL or -f FILE)");
    }
    return statements;
  }

  /** A file named by {@code -f}; one that cannot be read is a usage error (exit 2). */
  private static String read(Path file) {
    try {
      return Files.readString(file, StandardCharsets.UTF_8);
    } catch (NoSuchFileException e) {
      throw new IllegalArgumentException("-f " + file + ": no such file");
    } catch (IOException e) {
      throw new IllegalArgumentException(
          "-f "
              + file
              + ": cannot read it ("
              + e.getClass().getSimpleName()
              + ": "
              + e.getMessage()
              + ")");
    }
  }
}
