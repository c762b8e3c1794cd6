package dev.lake.app;

import dev.lake.aws.AwsClients;
import dev.lake.aws.AwsConfig;
import dev.lake.core.StorageAccess;
import java.util.Optional;

/**
 * How table formats reach S3, from the deployment's AWS settings only (never from a client): the
 * region, with an endpoint override (moto, LocalStack) that endpoint, and the fixed emulator key
 * only for an emulator without configured credentials, exactly as the SDK clients of {@link
 * AwsClients} do; otherwise credentials come from the default chain (environment, container,
 * instance role). Each format translates the {@link StorageAccess} into its own library's settings.
 */
public final class ObjectStorage {
  private ObjectStorage() {}

  /** The object-store access of a deployment; none (local tables only) without AWS settings. */
  public static StorageAccess access(Optional<AwsConfig> aws) {
    if (aws.isEmpty()) {
      return StorageAccess.none();
    }
    AwsConfig config = aws.get();
    Optional<StorageAccess.StaticKey> key =
        AwsClients.usesEmulatorCredentials(config.endpoint())
            ? Optional.of(
                new StorageAccess.StaticKey(AwsClients.EMULATOR_KEY, AwsClients.EMULATOR_KEY))
            : Optional.empty();
    return new StorageAccess(Optional.of(config.region()), config.endpoint(), key);
  }
}
