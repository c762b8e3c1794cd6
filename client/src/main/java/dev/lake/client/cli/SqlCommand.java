package dev.lake.client.cli;

import dev.lake.client.LakeClient;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * {@code lake sql}: runs {@code -e SQL} or {@code -f FILE}, or opens an interactive shell when
 * neither is given and stdin is a terminal (SQL piped into stdin runs as a script).
 */
@Command(
    name = "sql",
    mixinStandardHelpOptions = true,
    description = "Run SQL against lake, or open an interactive shell.")
final class SqlCommand implements Callable<Integer> {
  @Mixin ConnectionOptions connection;
  @Mixin SqlSource source;
  @Mixin Verbosity verbosity;

  @Option(
      names = "--format",
      description =
          "table, csv, json, parquet or arrow (default: from --output's extension, else table on a"
              + " terminal and csv when piped).")
  OutputFormat format;

  @Option(
      names = {"-o", "--output"},
      paramLabel = "FILE",
      description = "Write the result to FILE (created only when complete).")
  Path output;

  @Option(
      names = "--durable",
      description = "Run as a durable query (PollFlightInfo) with a progress bar on stderr.")
  boolean durable;

  @Option(names = "--explain", description = "Print the query plan instead of running it.")
  boolean explain;

  @Override
  public Integer call() throws Exception {
    boolean shell = !source.given() && Terminals.stdin();
    List<String> statements = shell ? List.of() : source.statements(System.in);
    OutputFormat chosen = chosenFormat();
    if (chosen.binary()
        && output == null
        && (Terminals.stdout() || chosen == OutputFormat.PARQUET)) {
      throw new IllegalArgumentException(
          "--format " + chosen.name().toLowerCase() + " needs --output FILE");
    }
    if (output != null && statements.size() > 1) {
      throw new IllegalArgumentException(
          "--output takes the result of one statement; got " + statements.size());
    }
    try (LakeClient client = LakeClient.connect(connection.config(Optional.empty()))) {
      QueryRunner runner = new QueryRunner(client, System.out);
      if (shell) {
        return new Shell(runner, durable).run();
      }
      for (String sql : statements) {
        if (explain) {
          runner.explain(sql, durable);
        } else {
          runner.run(sql, chosen, Optional.ofNullable(output), durable);
        }
      }
    }
    return 0;
  }

  private OutputFormat chosenFormat() {
    if (format != null) {
      return format;
    }
    Optional<OutputFormat> fromFile =
        Optional.ofNullable(output).flatMap(OutputFormat::fromExtension);
    if (fromFile.isPresent()) {
      return fromFile.get();
    }
    return output == null && Terminals.stdout() ? OutputFormat.TABLE : OutputFormat.CSV;
  }
}
