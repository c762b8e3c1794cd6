package dev.lake.core.job;

import static java.util.Objects.requireNonNull;

import dev.lake.core.Bounds;
import java.util.Optional;
import java.util.Set;

/**
 * The bounds a {@link JobStore} write must keep, checked atomically with the write itself (so every
 * front-door replica and worker sharing the store sees one count). A job is <em>active</em> from
 * creation until its record turns terminal, and <em>running</em> while RUNNING; a write that would
 * add a job to a set already holding the bound's number of other jobs is refused.
 *
 * @param maxActivePerTenant PENDING or RUNNING jobs of one tenant (the queued bound of submission)
 * @param maxRunningPerTenant RUNNING jobs of one tenant (the per-tenant execution lease)
 * @param maxRunning RUNNING jobs of all tenants (the global execution lease)
 */
public record JobLimits(int maxActivePerTenant, int maxRunningPerTenant, int maxRunning) {
  /** No bound: renewals, releases, terminal writes and tests. */
  public static final JobLimits NONE =
      new JobLimits(Integer.MAX_VALUE, Integer.MAX_VALUE, Integer.MAX_VALUE);

  public JobLimits {
    Bounds.check("maxActivePerTenant", maxActivePerTenant, 1, Integer.MAX_VALUE);
    Bounds.check("maxRunningPerTenant", maxRunningPerTenant, 1, Integer.MAX_VALUE);
    Bounds.check("maxRunning", maxRunning, 1, Integer.MAX_VALUE);
  }

  /** Only the per-tenant bound on active jobs (a submission). */
  public static JobLimits active(int maxActivePerTenant) {
    return new JobLimits(maxActivePerTenant, Integer.MAX_VALUE, Integer.MAX_VALUE);
  }

  /** Only the execution lease: running jobs per tenant and overall (a claim). */
  public static JobLimits running(int maxRunningPerTenant, int maxRunning) {
    return new JobLimits(Integer.MAX_VALUE, maxRunningPerTenant, maxRunning);
  }

  /** The bound of {@code limit}. */
  public int max(Limit limit) {
    return switch (limit) {
      case ACTIVE_PER_TENANT -> maxActivePerTenant;
      case RUNNING_PER_TENANT -> maxRunningPerTenant;
      case RUNNING -> maxRunning;
    };
  }

  /**
   * The first bound that refuses writing {@code next}, given the ids its tenant's active and
   * running sets hold and (read only when needed) the global running set; empty when the write
   * fits.
   */
  public Optional<Reached> refuses(
      Job next,
      Set<String> active,
      Set<String> runningOfTenant,
      java.util.function.Supplier<Set<String>> running) {
    Optional<Reached> r = Optional.empty();
    if (active(next.state())) {
      r = refuses(Limit.ACTIVE_PER_TENANT, active, next);
    }
    if (r.isEmpty() && running(next.state())) {
      r = refuses(Limit.RUNNING_PER_TENANT, runningOfTenant, next);
      if (r.isEmpty()) {
        r = refuses(Limit.RUNNING, running.get(), next);
      }
    }
    return r;
  }

  /**
   * The bound {@code limit} refuses adding {@code next} to {@code holders} (the ids the set holds
   * now), or empty when {@code next} is one of them already or a place is free.
   */
  public Optional<Reached> refuses(Limit limit, Set<String> holders, Job next) {
    int max = max(limit);
    if (holders.contains(next.id()) || holders.size() < max) {
      return Optional.empty();
    }
    return Optional.of(new Reached(limit, next.tenant(), holders.size(), max));
  }

  /** Which bound refused a write. */
  public enum Limit {
    ACTIVE_PER_TENANT,
    RUNNING_PER_TENANT,
    RUNNING
  }

  /**
   * A refused write: {@code limit} of {@code tenant} already counts {@code held} jobs, at least its
   * bound {@code max}.
   */
  public record Reached(Limit limit, String tenant, int held, int max) {
    public Reached {
      requireNonNull(limit, "limit is null");
      requireNonNull(tenant, "tenant is null");
    }
  }

  /** How many jobs a tenant has active and running, and how many run overall. */
  public record Usage(int active, int runningOfTenant, int running) {}

  /** Whether a job in {@code state} counts as active. */
  public static boolean active(JobState state) {
    return !state.terminal();
  }

  /** Whether a job in {@code state} holds an execution lease slot. */
  public static boolean running(JobState state) {
    return state == JobState.RUNNING;
  }
}
