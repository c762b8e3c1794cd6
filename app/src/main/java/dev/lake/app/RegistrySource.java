package dev.lake.app;

import static java.util.Objects.requireNonNull;

import dev.lake.core.Bounds;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Optional;

/**
 * The table registry of a deployment: a file or a DynamoDB table (exactly one), and how long the
 * request path may serve a cached lookup (default 1 s, 0 - 60 s; front door and worker alike).
 */
public record RegistrySource(Optional<Path> file, Optional<String> table, Duration freshness) {
  public static final Duration DEFAULT_FRESHNESS = Duration.ofSeconds(1);

  public RegistrySource {
    requireNonNull(file, "file is null");
    requireNonNull(table, "table is null");
    requireNonNull(freshness, "freshness is null");
    if (file.isPresent() == table.isPresent()) {
      throw new IllegalArgumentException("a registry is either a file or a DynamoDB table");
    }
    Bounds.check("registryFreshness", freshness, Duration.ZERO, Duration.ofMinutes(1));
  }

  public static RegistrySource file(Path file) {
    return new RegistrySource(Optional.of(file), Optional.empty(), DEFAULT_FRESHNESS);
  }

  public static RegistrySource dynamoDb(String table) {
    return new RegistrySource(Optional.empty(), Optional.of(table), DEFAULT_FRESHNESS);
  }

  public RegistrySource withFreshness(Duration value) {
    return new RegistrySource(file, table, value);
  }
}
