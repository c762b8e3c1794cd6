package dev.lake.bench;

import dev.lake.bench.ClientSpec.Outcome;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * Runs client loops, by default in a separate JVM on this JVM's class path so that client work
 * (decoding, GC) does not share a heap and JIT with the servers it measures.
 */
final class ClientRunner {
  private final boolean fork;
  private final Path workDir;

  ClientRunner(boolean fork, Path workDir) {
    this.fork = fork;
    this.workDir = workDir;
  }

  boolean forks() {
    return fork;
  }

  Outcome run(ClientSpec spec) throws Exception {
    if (!fork) {
      return ClientLoop.run(spec);
    }
    Files.createDirectories(workDir);
    Path specFile = Files.createTempFile(workDir, "client-spec", ".json");
    Path outcomeFile = Files.createTempFile(workDir, "client-outcome", ".json");
    Path log = workDir.resolve("client.log");
    try {
      ClientLoop.JSON.writeValue(specFile.toFile(), spec);
      ProcessBuilder builder =
          ChildJvm.builder(
              List.of("-Xmx2g", "-XX:MaxDirectMemorySize=4g"),
              ClientLoop.class,
              List.of(specFile.toString(), outcomeFile.toString()));
      Process p =
          builder
              .redirectErrorStream(true)
              .redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile()))
              .start();
      if (!p.waitFor(30, TimeUnit.MINUTES)) {
        p.destroyForcibly();
        throw new IllegalStateException("client JVM timed out; see " + log);
      }
      if (p.exitValue() != 0) {
        throw new IllegalStateException(
            "client JVM failed (exit " + p.exitValue() + "): " + ChildJvm.tail(log));
      }
      return ClientLoop.JSON.readValue(outcomeFile.toFile(), Outcome.class);
    } finally {
      Files.deleteIfExists(specFile);
      Files.deleteIfExists(outcomeFile);
    }
  }
}
