package dev.lake.iceberg;

import dev.lake.core.FormatOptions;
import dev.lake.core.Grant;
import dev.lake.core.TableRef;
import java.nio.file.Path;
import java.time.Duration;
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
      names = "--iceberg-oauth2-credential",
      description =
          "OAuth2 client credentials client_id:secret for the catalog (client-credentials flow);"
              + " set it as LAKE_ICEBERG_OAUTH2_CREDENTIAL from a secret store, not on a command"
              + " line. Off by default.")
  String oauth2Credential;

  @Option(
      names = "--iceberg-oauth2-server-uri",
      description =
          "OAuth2 token endpoint (https off loopback; default: the catalog's own v1/oauth/tokens).")
  String oauth2ServerUri;

  @Option(names = "--iceberg-oauth2-scope", description = "OAuth2 scope to request (optional).")
  String oauth2Scope;

  @Option(
      names = "--iceberg-connect-timeout",
      description = "Connect timeout to the catalog (ISO-8601, default PT5S, PT0.001S - PT5M).")
  Duration connectTimeout = IcebergConfig.DEFAULT_CONNECT_TIMEOUT;

  @Option(
      names = "--iceberg-read-timeout",
      description = "Read timeout to the catalog (ISO-8601, default PT30S, PT0.001S - PT5M).")
  Duration readTimeout = IcebergConfig.DEFAULT_READ_TIMEOUT;

  @Option(
      names = "--iceberg-max-retries",
      description = "Retries of a failed catalog request (default 3, 0 - 10).")
  int maxRetries = IcebergConfig.DEFAULT_MAX_RETRIES;

  @Option(
      names = "--iceberg-cache-max-tables",
      description = "Most tables whose resolution is cached (default 10000, 1 - 1000000).")
  int cacheMaxTables = IcebergConfig.DEFAULT_CACHE_MAX_KEYS;

  @Option(
      names = "--iceberg-cache-fresh",
      description =
          "A cached resolution younger than this is served without asking the catalog (ISO-8601,"
              + " default PT5S, PT0.001S - PT1H).")
  Duration cacheFresh = IcebergConfig.DEFAULT_CACHE_FRESH;

  @Option(
      names = "--iceberg-cache-stale",
      description =
          "A cached resolution up to this old is served while one refresh runs; longer than"
              + " --iceberg-cache-fresh (ISO-8601, default PT1M, at most PT1H).")
  Duration cacheStale = IcebergConfig.DEFAULT_CACHE_STALE;

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
      if (allow != null || warehouse != null || oauth2Credential != null) {
        throw new IllegalArgumentException(
            "--iceberg-allow/--iceberg-warehouse/--iceberg-oauth2-credential need --iceberg-rest");
      }
      return Optional.empty();
    }
    if (allow == null) {
      throw new IllegalArgumentException(
          "--iceberg-rest needs --iceberg-allow: name the namespaces or tables lake may read");
    }
    if (oauth2Credential == null && (oauth2ServerUri != null || oauth2Scope != null)) {
      throw new IllegalArgumentException(
          "--iceberg-oauth2-server-uri/--iceberg-oauth2-scope need --iceberg-oauth2-credential");
    }
    IcebergConfig config =
        IcebergConfig.fromFlags(restUri, warehouse, allow)
            .withTimeouts(connectTimeout, readTimeout, maxRetries)
            .withCache(cacheMaxTables, cacheFresh, cacheStale);
    if (oauth2Credential != null) {
      config =
          config.withOAuth2(
              new IcebergConfig.OAuth2(
                  oauth2Credential,
                  Optional.ofNullable(oauth2ServerUri).map(IcebergConfig::parseUri),
                  Optional.ofNullable(oauth2Scope)));
    }
    return Optional.of(config);
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
