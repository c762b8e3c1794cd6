package dev.lake.durable;

import static java.util.Objects.requireNonNull;

import dev.lake.core.QueryStats;
import java.time.Duration;
import java.util.Map;

/**
 * What one attempt of a job did, for the worker's metrics line: where its time went and what the
 * execution cost. Durations of phases the attempt never reached are zero.
 *
 * @param snapshots table → {@code <format> <version>} the job read ({@link
 *     dev.lake.core.SnapshotSet#pins()}); empty if the envelope never opened
 * @param planning opening the envelope, re-checking grants and snapshots, and the engine's planning
 *     and start (until the execution was handed over)
 * @param execution pulling the result from the engine, minus the time spent uploading
 * @param upload time spent writing result parts to the object store (the manifest is not counted)
 * @param rows result rows written
 */
public record AttemptReport(
    String jobId,
    String tenant,
    Map<String, String> snapshots,
    Duration planning,
    Duration execution,
    Duration upload,
    long rows,
    QueryStats stats) {
  public AttemptReport {
    requireNonNull(jobId, "jobId is null");
    requireNonNull(tenant, "tenant is null");
    snapshots = Map.copyOf(requireNonNull(snapshots, "snapshots is null"));
    requireNonNull(planning, "planning is null");
    requireNonNull(execution, "execution is null");
    requireNonNull(upload, "upload is null");
    requireNonNull(stats, "stats is null");
  }
}
