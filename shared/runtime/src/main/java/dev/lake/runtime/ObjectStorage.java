package dev.lake.runtime;

import dev.lake.aws.AwsClients;
import dev.lake.aws.AwsConfig;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;

/**
 * How table readers reach S3, from the deployment's AWS settings only (never from a client):
 * Lance's object-store options and Iceberg's S3FileIO properties. Both get the region (always set,
 * or the store probes the instance-metadata address), and with an endpoint override (moto,
 * LocalStack) the endpoint and path-style addressing (plus plain HTTP for Lance). Credentials come
 * from the default chain (environment, container, instance role); only an emulator without
 * configured credentials gets the fixed emulator key, exactly as the SDK clients of {@link
 * AwsClients} do.
 */
public final class ObjectStorage {
  private ObjectStorage() {}

  /** No settings: local datasets only. */
  public static Map<String, String> none() {
    return Map.of();
  }

  /** Lance storage options for {@code s3://} datasets of this deployment. */
  public static Map<String, String> lance(Optional<AwsConfig> aws) {
    if (aws.isEmpty()) {
      return none();
    }
    AwsConfig config = aws.get();
    Map<String, String> options = new LinkedHashMap<>();
    options.put("aws_region", config.region());
    config
        .endpoint()
        .ifPresent(
            uri -> {
              options.put("aws_endpoint", uri.toString());
              options.put("aws_virtual_hosted_style_request", "false");
              if ("http".equalsIgnoreCase(uri.getScheme())) {
                options.put("allow_http", "true");
              }
            });
    if (AwsClients.usesEmulatorCredentials(config.endpoint())) {
      options.put("aws_access_key_id", AwsClients.EMULATOR_KEY);
      options.put("aws_secret_access_key", AwsClients.EMULATOR_KEY);
    }
    return Map.copyOf(options);
  }

  /**
   * Iceberg S3FileIO properties of this deployment; the Iceberg configuration's own properties win
   * over them.
   */
  public static Map<String, String> iceberg(Optional<AwsConfig> aws) {
    if (aws.isEmpty()) {
      return none();
    }
    AwsConfig config = aws.get();
    Map<String, String> properties = new LinkedHashMap<>();
    properties.put("client.region", config.region());
    config
        .endpoint()
        .ifPresent(
            uri -> {
              properties.put("s3.endpoint", uri.toString());
              properties.put("s3.path-style-access", "true");
            });
    if (AwsClients.usesEmulatorCredentials(config.endpoint())) {
      properties.put("s3.access-key-id", AwsClients.EMULATOR_KEY);
      properties.put("s3.secret-access-key", AwsClients.EMULATOR_KEY);
    }
    return Map.copyOf(properties);
  }
}
