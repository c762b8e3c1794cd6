package dev.lake.bench;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import picocli.CommandLine;

/** {@code bin/lake bench --help} and {@code loadtest --help} name the command a person typed. */
class HelpTest {
  @ParameterizedTest
  @ValueSource(classes = {BenchMain.class, LoadTestMain.class})
  void help_namesTheLakeCommand(Class<?> command) throws Exception {
    CommandLine cli = new CommandLine(command.getDeclaredConstructor().newInstance());
    String name = command == BenchMain.class ? "bench" : "loadtest";

    assertThat(cli.getUsageMessage()).startsWith("Usage: lake " + name + " ");
  }
}
