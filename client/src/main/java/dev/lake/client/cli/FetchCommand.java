package dev.lake.client.cli;

import dev.lake.client.LakeClient;
import dev.lake.client.QueryHandle;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.concurrent.Callable;
import java.util.stream.Stream;
import org.apache.arrow.vector.ipc.ArrowReader;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code lake fetch HANDLE --output F}: waits for the query, downloads every part into {@code
 * F.parts/} (resuming what a killed fetch left there), then writes {@code F} in the chosen format
 * and removes the parts.
 */
@Command(
    name = "fetch",
    mixinStandardHelpOptions = true,
    description = "Download the result of a durable query into a file (resumable).")
final class FetchCommand extends HandleCommand implements Callable<Integer> {
  @Option(
      names = {"-o", "--output"},
      required = true,
      paramLabel = "FILE",
      description = "The file to write (appears only when complete).")
  Path output;

  @Option(
      names = "--format",
      description = "parquet, arrow, csv or json (default: from the extension, else parquet).")
  OutputFormat format;

  @Option(
      names = "--parallel",
      defaultValue = "4",
      description = "Parts downloaded at once (1-64, default 4).")
  int parallel;

  @Override
  public Integer call() throws IOException {
    OutputFormat chosen =
        format != null ? format : OutputFormat.fromExtension(output).orElse(OutputFormat.PARQUET);
    Path parts = output.toAbsolutePath().resolveSibling(output.getFileName() + ".parts");
    try (LakeClient client = connect()) {
      QueryHandle query = client.resume(handle);
      ProgressBar waiting = ProgressBar.onStderr("running    ");
      query.await(waiting);
      waiting.done();
      ProgressBar downloading = ProgressBar.onStderr("downloading");
      QueryHandle.Download download = query.download(parts, parallel, downloading);
      downloading.done();
      if (download.resumed() > 0) {
        System.err.println(
            "resumed: "
                + download.resumed()
                + " of "
                + download.parts().size()
                + " parts were already downloaded");
      }
      try (Output out = Output.file(output);
          ArrowReader reader = client.readParts(download.parts(), download.schema())) {
        chosen.writer(client.allocator()).write(reader, out);
        out.commit();
      }
    }
    deleteTree(parts);
    return 0;
  }

  private static void deleteTree(Path dir) throws IOException {
    try (Stream<Path> files = Files.walk(dir)) {
      for (Path p : files.sorted(Comparator.reverseOrder()).toList()) {
        Files.deleteIfExists(p);
      }
    }
  }
}
