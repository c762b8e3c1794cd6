package dev.lake.client.cli;

import dev.lake.client.LakeClient;
import dev.lake.client.LakeClientConfig;
import java.nio.file.Path;
import java.time.Duration;
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

  @Option(
      names = "--timeout",
      paramLabel = "DURATION",
      defaultValue = "${env:LAKE_TIMEOUT}",
      converter = DurationConverter.class,
      description =
          "Deadline of each interactive statement, e.g. 500ms, 30s, 5m (env LAKE_TIMEOUT; default:"
              + " the server's --query-timeout; at most its --max-query-timeout). A statement still"
              + " running then ends with TIMED_OUT.")
  Duration timeout;

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
    if (durable && timeout != null) {
      throw new IllegalArgumentException(
          "--timeout bounds interactive statements; a durable query is bounded by the server's"
              + " durable deadline (--durable-query-timeout) and can be cancelled");
    }
    LakeClientConfig config = connection.config(Optional.empty());
    try (LakeClient client =
        LakeClient.connect(timeout == null ? config : config.withTimeout(timeout))) {
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
