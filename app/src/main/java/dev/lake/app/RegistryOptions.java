package dev.lake.app;

import java.nio.file.Path;
import java.time.Duration;
import java.util.Optional;
import picocli.CommandLine.Option;

/**
 * Where lake's table registry lives: a file (local mode, one machine) or a DynamoDB table shared by
 * every front-door replica and worker. Exactly one of the two.
 */
public final class RegistryOptions {
  @Option(names = "--registry", description = "Registry file (one machine).")
  Path file;

  @Option(
      names = "--registry-table",
      description = "DynamoDB registry table shared by replicas and workers.")
  String table;

  @Option(
      names = "--registry-freshness-ms",
      defaultValue = "1000",
      description = "How long a registry lookup may be served from cache (0 - 60,000 ms).")
  long freshnessMs;

  /** The validated choice, or the file {@code fallback} when neither is given. */
  public RegistrySource sourceOr(Path fallback) {
    return file == null && table == null
        ? RegistrySource.file(fallback).withFreshness(Duration.ofMillis(freshnessMs))
        : source();
  }

  /** The validated choice. */
  public RegistrySource source() {
    if ((file == null) == (table == null)) {
      throw new IllegalArgumentException(
          "name the table registry: --registry FILE or --registry-table TABLE (LAKE_REGISTRY /"
              + " LAKE_REGISTRY_TABLE), exactly one");
    }
    return new RegistrySource(
        Optional.ofNullable(file), Optional.ofNullable(table), Duration.ofMillis(freshnessMs));
  }
}
