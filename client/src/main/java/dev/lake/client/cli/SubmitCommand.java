package dev.lake.client.cli;

import dev.lake.client.LakeClient;
import dev.lake.client.QueryHandle;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/** {@code lake submit}: starts a durable query and prints its handle (one line) on stdout. */
@Command(
    name = "submit",
    mixinStandardHelpOptions = true,
    description =
        "Submit a durable query and print its handle for lake status, fetch and cancel (from any"
            + " process, until the query expires).")
final class SubmitCommand implements Callable<Integer> {
  @Mixin ConnectionOptions connection;
  @Mixin SqlSource source;
  @Mixin Verbosity verbosity;

  @Option(
      names = "--submission-id",
      description =
          "Idempotency key: submitting again with the same id lands on the same query"
              + " (default: derived by the server from the statement and its snapshots).")
  String submissionId;

  @Override
  public Integer call() throws Exception {
    List<String> statements = source.statements(System.in);
    if (statements.size() != 1) {
      throw new IllegalArgumentException("submit takes one statement; got " + statements.size());
    }
    try (LakeClient client = LakeClient.connect(connection.config(Optional.empty()))) {
      QueryHandle handle =
          submissionId == null
              ? client.submit(statements.get(0))
              : client.submit(statements.get(0), submissionId);
      System.out.println(handle.serialize());
    }
    return 0;
  }
}
