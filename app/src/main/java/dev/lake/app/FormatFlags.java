package dev.lake.app;

import static java.util.Objects.requireNonNull;

import dev.lake.core.FormatOptions;
import dev.lake.core.TableFormat;
import dev.lake.core.TableFormats;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import picocli.CommandLine;
import picocli.CommandLine.Model.CommandSpec;

/**
 * The table formats' own flags on lake's process commands: {@code @Command(modelTransformer =
 * FormatFlags.class)} adds, when the command line is built, a fresh {@link FormatOptions} mixin of
 * every installed format ({@link TableFormat#newOptions}), so {@code serve}, {@code local} and
 * {@code worker} take e.g. {@code --iceberg-rest} (⇔ {@code LAKE_ICEBERG_REST} through {@link
 * EnvDefaults}, like every other flag) without naming any format, and {@code --data-locations}
 * ({@link DataLocationOptions}) which every format obeys. After parsing, {@link #settings} collects
 * what the mixins describe into the process's format settings ({@link
 * RuntimeConfig#formatSettings()}).
 */
public final class FormatFlags implements CommandLine.IModelTransformer {
  /** Picocli builds this (no-argument constructor); it holds nothing. */
  public FormatFlags() {}

  @Override
  public CommandSpec transform(CommandSpec command) {
    // where table data may live: one setting for every format (DataLocations)
    command.addMixin("data-locations", CommandSpec.forAnnotatedObject(new DataLocationOptions()));
    for (TableFormat<?> format : TableFormats.installed().formats()) {
      format
          .newOptions()
          .ifPresent(
              options ->
                  command.addMixin(
                      "format:" + format.tag(), CommandSpec.forAnnotatedObject(options)));
    }
    return command;
  }

  /**
   * The validated settings of every format's options parsed into {@code command} (a command built
   * with this transformer), in registration order; a bad value throws {@link
   * IllegalArgumentException} naming it.
   */
  public static List<Object> settings(CommandSpec command) {
    requireNonNull(command, "command is null");
    List<Object> settings = new ArrayList<>();
    for (CommandSpec mixin : command.mixins().values()) {
      if (mixin.userObject() instanceof FormatOptions options) {
        settings.addAll(options.settings());
      }
    }
    return List.copyOf(settings);
  }

  /**
   * The format settings that the {@code LAKE_*} variables of {@code env} alone describe (no flags),
   * as a process started with that environment gets them.
   */
  public static List<Object> fromEnvironment(Map<String, String> env) {
    CommandSpec command = new FormatFlags().transform(CommandSpec.create());
    CommandLine line = new CommandLine(command);
    line.setDefaultValueProvider(new EnvDefaults(env));
    line.parseArgs();
    return settings(command);
  }
}
