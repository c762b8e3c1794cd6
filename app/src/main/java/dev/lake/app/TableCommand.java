package dev.lake.app;

import dev.lake.aws.AwsClients;
import dev.lake.core.DataLocations;
import dev.lake.core.Registry;
import dev.lake.core.TableRef;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/** {@code lake table register|unregister}: the trusted operator's registry actions. */
@Command(
    name = "table",
    mixinStandardHelpOptions = true,
    description = "Import, register or unregister tables (trusted operator action).",
    subcommands = {
      TableImportCommand.class,
      TableCommand.Register.class,
      TableCommand.Unregister.class
    })
final class TableCommand implements Runnable {
  @Spec CommandLine.Model.CommandSpec spec;

  @Override
  public void run() {
    spec.commandLine().usage(spec.commandLine().getOut());
  }

  /** The registry the options name (the local default when none is), closed after use. */
  static int withRegistry(
      RegistryOptions registry,
      LocalDataDir local,
      AwsClientOptions aws,
      java.util.function.ToIntFunction<Registry> use) {
    RegistrySource source = registry.sourceOr(local.registryFile());
    Optional<AwsClients> clients = source.table().map(t -> new AwsClients(aws.clientsOnly()));
    try {
      return use.applyAsInt(LakeRuntime.registry(source, clients));
    } finally {
      clients.ifPresent(AwsClients::close);
    }
  }

  @Command(
      name = "register",
      mixinStandardHelpOptions = true,
      description =
          "Register a table in the registry file (--registry, default DATA_DIR/registry.json with"
              + " --data-dir, else .lake/registry.json) or the shared DynamoDB registry"
              + " (--registry-table). The location must lie under --data-locations (default for a"
              + " registry file: the file's directory) and open as the format named (bin/lake"
              + " table import turns Parquet, CSV or JSON files into a Lance table).")
  static final class Register implements Callable<Integer> {
    @Spec CommandLine.Model.CommandSpec spec;

    @CommandLine.Mixin RegistryOptions registry;

    @CommandLine.Mixin LocalDataDir local;

    @CommandLine.Mixin AwsClientOptions aws;

    @CommandLine.Mixin DataLocationOptions dataLocations;

    @Parameters(index = "0", description = "lake.<namespace>.<table>")
    String name;

    @Parameters(
        index = "1",
        description = "Location of the table in its format's terms (a path or s3://bucket/key).")
    String location;

    @Option(
        names = "--table-format",
        defaultValue = "lance",
        description =
            "Format of the table: the tag of an installed table format (default lance); an unknown"
                + " one is refused.")
    String format = "lance";

    @Option(
        names = "--table-option",
        description =
            "A format-owned option of the table, KEY=VALUE (repeatable; the format checks them,"
                + " Lance takes none).")
    Map<String, String> options = new LinkedHashMap<>();

    @Override
    public Integer call() {
      TableRef ref = TableRef.parse(name);
      Registry.Entry.fresh(ref, format, location, options); // the name, format and options first
      // then the location, before anything opens it
      DataLocations allowed = locations(dataLocations, registry, local);
      allowed.checkRegistration(location);
      // a location that does not open as its format is refused now, not on every query
      try (org.apache.arrow.memory.RootAllocator allocator =
          new org.apache.arrow.memory.RootAllocator()) {
        dev.lake.core.TableFormats.installed()
            .checkOpens(
                format,
                location,
                options,
                ObjectStorage.access(Optional.of(aws.clientsOnly())),
                allocator);
      }
      return withRegistry(
          registry,
          local,
          aws,
          r -> {
            var entry = allowed.confine(r).register(ref, format, location, options);
            spec.commandLine()
                .getOut()
                .println(
                    "registered "
                        + entry.ref()
                        + " as "
                        + entry.format()
                        + " (incarnation "
                        + entry.incarnation()
                        + ")");
            return 0;
          });
    }
  }

  /**
   * Where a registered table may lie: {@code --data-locations} if given; else, for a registry file
   * (local mode), the directory holding it (local mode's data directory); else nothing.
   */
  static DataLocations locations(
      DataLocationOptions given, RegistryOptions registry, LocalDataDir local) {
    return given
        .given()
        .orElseGet(
            () -> {
              RegistrySource source = registry.sourceOr(local.registryFile());
              return source
                  .file()
                  .map(f -> DataLocations.of(f.toAbsolutePath().getParent()))
                  .orElse(DataLocations.NONE);
            });
  }

  @Command(
      name = "unregister",
      mixinStandardHelpOptions = true,
      description = "Unregister a table; tickets sealed for it fail closed.")
  static final class Unregister implements Callable<Integer> {
    @Spec CommandLine.Model.CommandSpec spec;

    @CommandLine.Mixin RegistryOptions registry;

    @CommandLine.Mixin LocalDataDir local;

    @CommandLine.Mixin AwsClientOptions aws;

    @Parameters(index = "0", description = "lake.<namespace>.<table>")
    String name;

    @Override
    public Integer call() {
      TableRef ref = TableRef.parse(name);
      return withRegistry(
          registry,
          local,
          aws,
          r -> {
            boolean removed = r.unregister(ref);
            spec.commandLine()
                .getOut()
                .println(removed ? "unregistered " + ref : ref + " was not registered");
            return removed ? 0 : 1;
          });
    }
  }
}
