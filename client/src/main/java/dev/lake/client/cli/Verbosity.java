package dev.lake.client.cli;

import picocli.CommandLine.Option;

/** {@code --verbose}: library logging at INFO (read by {@link ClientCli#main} before parsing). */
final class Verbosity {
  @Option(names = "--verbose", description = "Show library log lines (INFO) on stderr.")
  boolean verbose;
}
