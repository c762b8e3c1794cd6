package dev.lake.bench;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * How the bench spawns its other JVMs (client loops, the Iceberg REST catalog): the same java
 * binary and class path as this JVM, Arrow's {@code --add-opens}, and without the glibc malloc
 * settings, which are lake's front door's (bin/lake, bench/run.sh), not theirs.
 */
final class ChildJvm {
  private ChildJvm() {}

  /** {@code java <options> -cp <this class path> <main> <args>}, environment cleaned. */
  static ProcessBuilder builder(List<String> options, Class<?> main, List<String> args) {
    List<String> command = new ArrayList<>();
    command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
    command.add("--add-opens=java.base/java.nio=ALL-UNNAMED");
    command.addAll(options);
    command.add("-cp");
    command.add(System.getProperty("java.class.path"));
    command.add(main.getName());
    command.addAll(args);
    ProcessBuilder builder = new ProcessBuilder(command);
    builder.environment().keySet().removeIf(ChildJvm::isMallocSetting);
    return builder;
  }

  static boolean isMallocSetting(String variable) {
    return variable.startsWith("MALLOC_") || variable.equals("GLIBC_TUNABLES");
  }

  /** The last lines of a child's log, for an error message. */
  static String tail(Path log) throws IOException {
    if (!Files.exists(log)) {
      return "(no log at " + log + ")";
    }
    List<String> lines = Files.readAllLines(log);
    return String.join("\n", lines.subList(Math.max(0, lines.size() - 15), lines.size()));
  }
}
