package dev.lake.app;

import java.nio.file.Path;
import picocli.CommandLine.Option;

/**
 * {@code --data-dir} of the table commands: {@code bin/lake local}'s directory (as {@code bin/lake
 * local} and {@code bin/lake sql} take it), whose {@code registry.json} is the registry when
 * neither {@code --registry} nor {@code --registry-table} names one.
 */
final class LocalDataDir {
  @Option(
      names = "--data-dir",
      defaultValue = ".lake",
      description =
          "bin/lake local's data directory: its registry.json is the registry unless --registry"
              + " or --registry-table names one (default .lake).")
  Path dataDir;

  /** The registry file of the data directory. */
  Path registryFile() {
    return dataDir.resolve("registry.json");
  }
}
