package dev.lake.app;

import static java.util.Objects.requireNonNull;

import dev.lake.core.LakeException;
import java.util.Locale;
import java.util.Map;
import picocli.CommandLine;
import picocli.CommandLine.Model.ArgSpec;
import picocli.CommandLine.Model.OptionSpec;

/**
 * The one configuration convention: every option {@code --foo-bar} may also be given as the
 * environment variable {@code LAKE_FOO_BAR} (ECS task definitions, Lambda, the CDK stack). A flag
 * on the command line wins over the variable, the variable over the option's default. Options are
 * therefore defined once, as picocli options; nothing reads {@code LAKE_*} variables by hand.
 */
public final class EnvDefaults implements CommandLine.IDefaultValueProvider {
  private final Map<String, String> env;

  public EnvDefaults(Map<String, String> env) {
    this.env = Map.copyOf(requireNonNull(env, "env is null"));
  }

  /** {@code --foo-bar} → {@code LAKE_FOO_BAR}. */
  public static String variable(String flag) {
    requireNonNull(flag, "flag is null");
    if (!flag.startsWith("--")) {
      throw new IllegalArgumentException("not a long option name: " + flag);
    }
    return "LAKE_" + flag.substring(2).replace('-', '_').toUpperCase(Locale.ROOT);
  }

  /**
   * Installs the convention on {@code cli} and all its subcommands, with lake's error handling: a
   * usage mistake (an unknown flag, a value that does not parse) prints one line and a hint, a
   * configuration mistake (a value out of bounds, a missing companion setting) one line, {@code
   * <prefix>: <message>}; both exit with 2. Any other failure prints one line and exits with 1; its
   * stack trace only with {@code --verbose} ({@code lake.verbose}). Returns {@code cli}.
   */
  public static CommandLine install(CommandLine cli, Map<String, String> env, String prefix) {
    cli.setDefaultValueProvider(new EnvDefaults(env));
    cli.setParameterExceptionHandler(
        (ex, args) -> {
          CommandLine failed = ex.getCommandLine();
          failed.getErr().println(prefix + ": " + ex.getMessage());
          failed.getErr().println("Try '" + commandName(failed) + " --help' for the options.");
          return 2;
        });
    cli.setExecutionExceptionHandler(
        (ex, cmd, parsed) -> {
          if (ex instanceof IllegalArgumentException || ex instanceof LakeException) {
            cmd.getErr().println(prefix + ": " + ex.getMessage());
            return 2;
          }
          if (Boolean.getBoolean("lake.verbose")) {
            throw ex;
          }
          cmd.getErr().println(prefix + ": " + oneLine(ex) + " (--verbose shows the stack trace)");
          return 1;
        });
    return cli;
  }

  /** {@code bin/lake local}, {@code bin/lake table register}, …: the command a person typed. */
  private static String commandName(CommandLine cmd) {
    String name = cmd.getCommandSpec().qualifiedName(" ");
    return name.startsWith("lake") ? "bin/" + name : name;
  }

  /** The failure and its causes' messages on one line. */
  private static String oneLine(Throwable ex) {
    StringBuilder line = new StringBuilder();
    for (Throwable t = ex; t != null && line.length() < 500; t = t.getCause()) {
      String message = t.getMessage() == null ? t.getClass().getSimpleName() : t.getMessage();
      if (line.indexOf(message) < 0) {
        line.append(line.isEmpty() ? "" : ": ").append(message);
      }
    }
    return line.toString().replaceAll("\\s*[\\r\\n]+\\s*", " ").strip();
  }

  @Override
  public String defaultValue(ArgSpec arg) {
    if (arg instanceof OptionSpec option && option.longestName().startsWith("--")) {
      String value = env.get(variable(option.longestName()));
      if (value != null && !value.isBlank()) {
        return value.trim();
      }
    }
    return null; // picocli then uses the option's own default
  }
}
