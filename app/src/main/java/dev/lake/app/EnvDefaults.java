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
   * configuration mistake (an invalid value, a missing companion setting) prints one line, {@code
   * <prefix>: <message>}, and exits with 2; anything else keeps its stack trace. Returns {@code
   * cli}.
   */
  public static CommandLine install(CommandLine cli, Map<String, String> env, String prefix) {
    cli.setDefaultValueProvider(new EnvDefaults(env));
    cli.setExecutionExceptionHandler(
        (ex, cmd, parsed) -> {
          if (ex instanceof IllegalArgumentException || ex instanceof LakeException) {
            cmd.getErr().println(prefix + ": " + ex.getMessage());
            return 2;
          }
          throw ex;
        });
    return cli;
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
