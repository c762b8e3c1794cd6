package dev.lake.iceberg;

import dev.lake.core.FormatOptions;
import dev.lake.core.Grant;
import dev.lake.core.TableRef;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import picocli.CommandLine.Option;

/**
 * The {@code --iceberg-*} flags ({@code LAKE_ICEBERG_*}) that every lake process command takes from
 * {@link IcebergFormat#newOptions}: at most one external Iceberg REST catalog per deployment, off
 * unless {@code --iceberg-rest} is given, and how its data files reach DuckDB.
 */
final class IcebergOptions implements FormatOptions {
  @Option(
      names = "--iceberg-rest",
      description = "URI of the Iceberg REST catalog to federate (read-only). Off by default.")
  String restUri;

  @Option(names = "--iceberg-warehouse", description = "Warehouse name passed to the catalog.")
  String warehouse;

  @Option(
      names = "--iceberg-allow",
      description =
          "Comma-separated allowlist of namespaces (ns, \"a.b\") and tables (ns.t) that may be"
              + " read; required with --iceberg-rest.")
  String allow;

  @Option(
      names = "--iceberg-direct-reads",
      negatable = true,
      defaultValue = "true",
      fallbackValue = "true",
      description =
          "Read Iceberg data files with DuckDB's own Parquet reader where the scan is exact"
              + " (default on; --no-iceberg-direct-reads uses Iceberg's generic reader only).")
  boolean directReads = true;

  @Option(
      names = "--iceberg-file-cache-dir",
      description =
          "Directory of the bounded local copies of Iceberg data files DuckDB reads (default: a"
              + " private directory under the temp directory, deleted at exit).")
  Path fileCacheDir;

  @Option(
      names = "--iceberg-file-cache-mb",
      defaultValue = "4096",
      description = "Bound of the Iceberg data-file cache in MiB (default 4096).")
  long fileCacheMb = 4096;

  /** The REST catalog, if configured, and how data files reach DuckDB; validated. */
  @Override
  public List<Object> settings() {
    List<Object> settings = new ArrayList<>();
    config().ifPresent(settings::add);
    settings.add(files());
    return List.copyOf(settings);
  }

  /** How Iceberg data files reach DuckDB, validated by {@link IcebergFilesConfig}. */
  IcebergFilesConfig files() {
    return new IcebergFilesConfig(
        directReads, Optional.ofNullable(fileCacheDir), Math.multiplyExact(fileCacheMb, 1L << 20));
  }

  /** The validated config, or empty when federation is off. */
  Optional<IcebergConfig> config() {
    if (restUri == null) {
      if (allow != null || warehouse != null) {
        throw new IllegalArgumentException(
            "--iceberg-allow/--iceberg-warehouse need --iceberg-rest");
      }
      return Optional.empty();
    }
    if (allow == null) {
      throw new IllegalArgumentException(
          "--iceberg-rest needs --iceberg-allow: name the namespaces or tables lake may read");
    }
    return Optional.of(IcebergConfig.fromFlags(restUri, warehouse, allow));
  }

  /** Principal grants equal to the allowlist (local mode's demo principal gets these). */
  static List<Grant> grantsFor(IcebergConfig config) {
    List<Grant> grants = new ArrayList<>();
    // typed grants quote a nested namespace ("a.b"), which plain concatenation did not
    for (String ns : config.allowlist().namespaces()) {
      grants.add(Grant.namespace(IcebergFormat.CATALOG, ns));
    }
    for (TableRef t : config.allowlist().tables()) {
      grants.add(Grant.table(t));
    }
    return List.copyOf(grants);
  }
}
