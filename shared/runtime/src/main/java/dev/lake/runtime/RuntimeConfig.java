package dev.lake.runtime;

import static java.util.Objects.requireNonNull;

import dev.lake.aws.AwsConfig;
import dev.lake.engine.EngineConfig;
import dev.lake.iceberg.IcebergConfig;
import dev.lake.iceberg.IcebergFilesConfig;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Everything {@link LakeRuntime} assembles a process from, validated once: the registry, the key
 * source, the engine, the optional Iceberg REST federation, the AWS deployment (required by a
 * DynamoDB registry, KMS keys and the AWS durable ports). Where durable results live is {@link
 * dev.lake.core.job.ResultLayout}, handed to the front door's durable tier and to {@link
 * LakeRuntime#processor}.
 *
 * @param icebergFiles how Iceberg data files reach DuckDB's Parquet reader (direct reads and their
 *     bounded file cache; used only with {@code iceberg})
 */
public record RuntimeConfig(
    RegistrySource registry,
    KeySource keys,
    EngineConfig engine,
    Optional<IcebergConfig> iceberg,
    IcebergFilesConfig icebergFiles,
    Optional<AwsConfig> aws) {
  public RuntimeConfig {
    requireNonNull(registry, "registry is null");
    requireNonNull(keys, "keys is null");
    requireNonNull(engine, "engine is null");
    requireNonNull(iceberg, "iceberg is null");
    requireNonNull(icebergFiles, "icebergFiles is null");
    requireNonNull(aws, "aws is null");
    if (registry.table().isPresent() && aws.isEmpty()) {
      throw new IllegalArgumentException("a DynamoDB registry needs the AWS settings");
    }
    if (keys instanceof KeySource.Kms && aws.isEmpty()) {
      throw new IllegalArgumentException("KMS keys need the AWS settings");
    }
  }

  /**
   * The format-owned settings records this deployment configures, handed to every installed table
   * format (each looks up its own type): the Iceberg REST catalog, if any, and its file reads.
   */
  public List<Object> formatSettings() {
    List<Object> settings = new ArrayList<>();
    iceberg.ifPresent(settings::add);
    settings.add(icebergFiles);
    return List.copyOf(settings);
  }

  /** A builder starting from the engine defaults, no Iceberg, no AWS. */
  public static Builder builder(RegistrySource registry, KeySource keys, EngineConfig engine) {
    return new Builder(registry, keys, engine);
  }

  /** Optional parts default to off; {@link #build} validates. */
  public static final class Builder {
    private final RegistrySource registry;
    private final KeySource keys;
    private final EngineConfig engine;
    private Optional<IcebergConfig> iceberg = Optional.empty();
    private IcebergFilesConfig icebergFiles = IcebergFilesConfig.defaults();
    private Optional<AwsConfig> aws = Optional.empty();

    private Builder(RegistrySource registry, KeySource keys, EngineConfig engine) {
      this.registry = registry;
      this.keys = keys;
      this.engine = engine;
    }

    public Builder iceberg(Optional<IcebergConfig> value) {
      this.iceberg = value;
      return this;
    }

    public Builder icebergFiles(IcebergFilesConfig value) {
      this.icebergFiles = value;
      return this;
    }

    public Builder aws(Optional<AwsConfig> value) {
      this.aws = value;
      return this;
    }

    public RuntimeConfig build() {
      return new RuntimeConfig(registry, keys, engine, iceberg, icebergFiles, aws);
    }
  }
}
