package dev.lake.core.job;

import static java.util.Objects.requireNonNull;

import dev.lake.core.Bounds;
import io.soabase.recordbuilder.core.RecordBuilder;
import java.time.Duration;

/**
 * Settings of the durable tier's front-door side, validated once. Where results live and their
 * bounds are {@link ResultLayout}'s, shared with the workers.
 *
 * @param jobTtl how long a job and its poll descriptor live (default 24 h, 1 min - 30 d); results
 *     live {@link ResultConfig#resultTtl} from completion, capped at the job's expiry
 * @param partTicketTtl lifetime of one part ticket (default 15 min, 10 s - 24 h), capped at the
 *     result's expiry; polling again issues fresh tickets
 * @param maxQueuedPerTenant durable jobs one tenant may have PENDING or RUNNING at once, counted
 *     across every replica through the job store (default 100, 1 - 100,000); a submission beyond it
 *     is RESOURCE_EXHAUSTED
 */
@RecordBuilder
public record DurableConfig(
    @RecordBuilder.Initializer("DEFAULT_JOB_TTL") Duration jobTtl,
    @RecordBuilder.Initializer("DEFAULT_PART_TICKET_TTL") Duration partTicketTtl,
    @RecordBuilder.Initializer("DEFAULT_MAX_QUEUED_PER_TENANT") int maxQueuedPerTenant)
    implements DurableConfigBuilder.With {
  public static final Duration DEFAULT_JOB_TTL = Duration.ofHours(24);
  public static final Duration DEFAULT_PART_TICKET_TTL = Duration.ofMinutes(15);
  public static final int DEFAULT_MAX_QUEUED_PER_TENANT = 100;
  public static final int MAX_QUEUED_PER_TENANT = 100_000;

  public DurableConfig {
    requireNonNull(jobTtl, "jobTtl is null");
    requireNonNull(partTicketTtl, "partTicketTtl is null");
    Bounds.check("jobTtl", jobTtl, Duration.ofMinutes(1), Duration.ofDays(30));
    Bounds.check("partTicketTtl", partTicketTtl, Duration.ofSeconds(10), Duration.ofHours(24));
    Bounds.check("maxQueuedPerTenant", maxQueuedPerTenant, 1, MAX_QUEUED_PER_TENANT);
  }

  public static DurableConfig defaults() {
    return DurableConfigBuilder.builder().build();
  }
}
