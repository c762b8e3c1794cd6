package dev.lake.app;

import static java.util.Objects.requireNonNull;

import dev.lake.aws.AwsConfig;
import dev.lake.core.DataLocations;
import dev.lake.engine.EngineConfig;
import dev.lake.sandbox.SandboxConfig;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Everything {@link LakeRuntime} assembles a process from, validated once: the registry, the key
 * source, the engine, the table formats' settings, the AWS deployment (required by a DynamoDB
 * registry, KMS keys and the AWS durable ports). Where durable results live is {@link
 * dev.lake.core.job.ResultLayout}, handed to the front door's durable tier and to {@link
 * LakeRuntime#processor}.
 *
 * @param formatSettings the format-owned settings records this deployment configures (e.g. an
 *     Iceberg REST catalog), handed to every installed table format, which looks up its own types
 *     ({@link dev.lake.core.FormatContext#findSettings}); from the command line through {@link
 *     FormatFlags}; always holds one {@link DataLocations} ({@link DataLocations#NONE}, nothing
 *     readable, when none is given), with local directories only beside a registry file (a DynamoDB
 *     registry is shared by hosts that do not share local files)
 * @param sandbox where tenant SQL runs: engine child processes ({@code --engine-isolation process},
 *     every command's default) or this JVM (the builder's default, for embedding and tests)
 */
public record RuntimeConfig(
    RegistrySource registry,
    KeySource keys,
    EngineConfig engine,
    List<Object> formatSettings,
    Optional<AwsConfig> aws,
    SandboxConfig sandbox) {
  public RuntimeConfig {
    requireNonNull(registry, "registry is null");
    requireNonNull(keys, "keys is null");
    requireNonNull(engine, "engine is null");
    requireNonNull(aws, "aws is null");
    requireNonNull(sandbox, "sandbox is null");
    formatSettings = withDataLocations(requireNonNull(formatSettings, "formatSettings is null"));
    // a DynamoDB registry is shared by a fleet: a local path would mean another file on each host
    if (registry.table().isPresent()
        && formatSettings.stream()
            .anyMatch(s -> s instanceof DataLocations l && l.hasLocalRoots())) {
      throw new IllegalArgumentException(
          DataLocations.FLAG
              + ": local directories are refused with a DynamoDB registry; a fleet reads"
              + " s3://bucket/prefix/ locations only");
    }
    if (registry.table().isPresent() && aws.isEmpty()) {
      throw new IllegalArgumentException("a DynamoDB registry needs the AWS settings");
    }
    if (keys instanceof KeySource.Kms && aws.isEmpty()) {
      throw new IllegalArgumentException("KMS keys need the AWS settings");
    }
  }

  /** {@code settings} with {@link DataLocations#NONE} added when they hold no data locations. */
  private static List<Object> withDataLocations(List<Object> settings) {
    if (settings.stream().anyMatch(DataLocations.class::isInstance)) {
      return List.copyOf(settings);
    }
    List<Object> out = new ArrayList<>(settings);
    out.add(DataLocations.NONE);
    return List.copyOf(out);
  }

  /** A builder starting from the engine defaults, no format settings, no AWS. */
  public static Builder builder(RegistrySource registry, KeySource keys, EngineConfig engine) {
    return new Builder(registry, keys, engine);
  }

  /** Optional parts default to off; {@link #build} validates. */
  public static final class Builder {
    private final RegistrySource registry;
    private final KeySource keys;
    private final EngineConfig engine;
    private List<Object> formatSettings = List.of();
    private Optional<AwsConfig> aws = Optional.empty();
    private SandboxConfig sandbox = SandboxConfig.inProcess();

    private Builder(RegistrySource registry, KeySource keys, EngineConfig engine) {
      this.registry = registry;
      this.keys = keys;
      this.engine = engine;
    }

    public Builder formatSettings(List<Object> value) {
      this.formatSettings = value;
      return this;
    }

    public Builder aws(Optional<AwsConfig> value) {
      this.aws = value;
      return this;
    }

    public Builder sandbox(SandboxConfig value) {
      this.sandbox = value;
      return this;
    }

    public RuntimeConfig build() {
      return new RuntimeConfig(registry, keys, engine, formatSettings, aws, sandbox);
    }
  }
}
