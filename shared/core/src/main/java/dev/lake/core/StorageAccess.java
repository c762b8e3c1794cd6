package dev.lake.core;

import static java.util.Objects.requireNonNull;

import java.net.URI;
import java.util.Optional;

/**
 * How table formats reach the deployment's object store, format-neutral: the region, an endpoint
 * override (an emulator such as moto or LocalStack) and a fixed key only for an emulator without
 * configured credentials. It comes from the deployment's own settings, never from a client; each
 * format translates it into its library's properties (Lance storage options, Iceberg FileIO
 * properties). Without a region formats read local files only.
 */
public record StorageAccess(
    Optional<String> region, Optional<URI> endpoint, Optional<StaticKey> staticKey) {
  public StorageAccess {
    requireNonNull(region, "region is null");
    requireNonNull(endpoint, "endpoint is null");
    requireNonNull(staticKey, "staticKey is null");
    if (region.isEmpty() && (endpoint.isPresent() || staticKey.isPresent())) {
      throw new IllegalArgumentException("an object-store endpoint or key needs a region");
    }
  }

  /** No object store: local tables only. */
  public static StorageAccess none() {
    return new StorageAccess(Optional.empty(), Optional.empty(), Optional.empty());
  }

  /** A fixed access key (emulators only; real deployments use the default credential chain). */
  public record StaticKey(String accessKeyId, String secretAccessKey) {
    public StaticKey {
      requireNonNull(accessKeyId, "accessKeyId is null");
      requireNonNull(secretAccessKey, "secretAccessKey is null");
    }

    @Override
    public String toString() {
      return "StaticKey[" + accessKeyId + ", <redacted>]";
    }
  }
}
