package dev.lake.lance;

import static java.util.Objects.requireNonNull;

import dev.lake.core.StorageAccess;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Lance's object-store options for {@code s3://} datasets, from the deployment's {@link
 * StorageAccess}: the region (always set on AWS, or the store probes the instance-metadata
 * address), with an endpoint override (moto, LocalStack) the endpoint, path-style addressing and,
 * for {@code http}, plain HTTP; a static key only for an emulator. Without a region: none (local
 * datasets only).
 */
public final class LanceStorage {
  private LanceStorage() {}

  /** The Lance storage options of {@code access}. */
  public static Map<String, String> options(StorageAccess access) {
    requireNonNull(access, "access is null");
    if (access.region().isEmpty()) {
      return Map.of();
    }
    Map<String, String> options = new LinkedHashMap<>();
    options.put("aws_region", access.region().get());
    access
        .endpoint()
        .ifPresent(
            uri -> {
              options.put("aws_endpoint", uri.toString());
              options.put("aws_virtual_hosted_style_request", "false");
              if ("http".equalsIgnoreCase(uri.getScheme())) {
                options.put("allow_http", "true");
              }
            });
    access
        .staticKey()
        .ifPresent(
            key -> {
              options.put("aws_access_key_id", key.accessKeyId());
              options.put("aws_secret_access_key", key.secretAccessKey());
            });
    return Map.copyOf(options);
  }
}
