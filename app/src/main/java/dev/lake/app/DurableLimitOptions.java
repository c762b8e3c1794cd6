package dev.lake.app;

import dev.lake.core.job.DurableConfig;
import dev.lake.durable.DurableTierConfig;
import picocli.CommandLine.Option;

/**
 * The durable tier's per-tenant bound, one definition shared by {@code serve} and {@code local}.
 */
final class DurableLimitOptions {
  @Option(
      names = "--durable-max-queued-per-tenant",
      defaultValue = "" + DurableConfig.DEFAULT_MAX_QUEUED_PER_TENANT,
      description =
          "Durable queries one tenant may have queued or running at once, across all replicas"
              + " (1 - 100,000); beyond it a submission is RESOURCE_EXHAUSTED.")
  int maxQueuedPerTenant;

  /** {@code config} with this bound (validated by {@link DurableConfig}). */
  DurableTierConfig apply(DurableTierConfig config) {
    return config.withMaxQueuedPerTenant(maxQueuedPerTenant);
  }
}
