package dev.lake.core;

import static java.util.Objects.requireNonNull;

import java.time.Duration;
import java.util.List;
import java.util.Optional;
import org.apache.arrow.memory.BufferAllocator;

/**
 * What a process hands every installed {@link TableFormat} to build its catalog from, all validated
 * once by the composition root: lake's table registry and how long the request path may cache a
 * resolution, the process's allocator, the object-store access, and the format-owned settings
 * records the deployment configured (e.g. an Iceberg REST catalog), which each format looks up by
 * its own type.
 */
public record FormatContext(
    Registry registry,
    Duration registryFreshness,
    BufferAllocator allocator,
    StorageAccess storage,
    List<Object> settings) {
  public FormatContext {
    requireNonNull(registry, "registry is null");
    requireNonNull(registryFreshness, "registryFreshness is null");
    requireNonNull(allocator, "allocator is null");
    requireNonNull(storage, "storage is null");
    settings = List.copyOf(requireNonNull(settings, "settings is null"));
    if (registryFreshness.isNegative()) {
      throw new IllegalArgumentException(
          "registryFreshness must not be negative: " + registryFreshness);
    }
    for (int i = 0; i < settings.size(); i++) {
      for (int j = 0; j < i; j++) {
        if (settings.get(i).getClass() == settings.get(j).getClass()) {
          throw new IllegalArgumentException(
              "two settings of type " + settings.get(i).getClass().getSimpleName());
        }
      }
    }
  }

  /** The settings record of {@code type}, if the deployment configured one. */
  public <T> Optional<T> findSettings(Class<T> type) {
    requireNonNull(type, "type is null");
    return settings.stream().filter(type::isInstance).map(type::cast).findFirst();
  }
}
