package dev.lake.iceberg;

import static java.util.Objects.requireNonNull;

import dev.lake.core.StorageAccess;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Iceberg S3FileIO properties from the deployment's {@link StorageAccess}: the region, with an
 * endpoint override the endpoint and path-style access, a static key only for an emulator. The
 * Iceberg configuration's own properties win over them.
 */
public final class IcebergStorage {
  private IcebergStorage() {}

  /** The S3FileIO properties of {@code access}; none without a region. */
  public static Map<String, String> properties(StorageAccess access) {
    requireNonNull(access, "access is null");
    if (access.region().isEmpty()) {
      return Map.of();
    }
    Map<String, String> properties = new LinkedHashMap<>();
    properties.put("client.region", access.region().get());
    access
        .endpoint()
        .ifPresent(
            uri -> {
              properties.put("s3.endpoint", uri.toString());
              properties.put("s3.path-style-access", "true");
            });
    access
        .staticKey()
        .ifPresent(
            key -> {
              properties.put("s3.access-key-id", key.accessKeyId());
              properties.put("s3.secret-access-key", key.secretAccessKey());
            });
    return Map.copyOf(properties);
  }

  /** {@code config} with the deployment's properties under its own (its own win). */
  static IcebergConfig under(IcebergConfig config, StorageAccess access) {
    Map<String, String> merged = new HashMap<>(properties(access));
    merged.putAll(config.properties());
    return config.withProperties(merged);
  }
}
