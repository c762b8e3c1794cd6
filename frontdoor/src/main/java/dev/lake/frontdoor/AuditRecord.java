package dev.lake.frontdoor;

import static java.util.Objects.requireNonNull;

import dev.lake.core.QueryStats;
import java.time.Duration;
import java.time.Instant;
import java.util.Collections;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/**
 * What the audit trail keeps of one RPC. Nothing a client sent verbatim enters: no token, header,
 * ticket, SQL text or error message — only identities, the RPC's name, counts and the status.
 *
 * @param tenant the principal's tenant, or {@code -} when the call was not authenticated
 * @param principal the principal's id, or {@code -}
 * @param rpc the Flight method (e.g. {@code DO_GET}, {@code GET_FLIGHT_INFO})
 * @param callId a fresh id per call, to join this line with the application log
 * @param query the query, job, snapshots, timings and accounting the handler named, if any
 * @param rows rows streamed to the client
 * @param bytes Arrow buffer bytes streamed to the client (egress before gRPC framing)
 * @param status the Flight status code name
 * @param outcome {@code ok}, {@code cancelled}, {@code client_error}, {@code unavailable} or {@code
 *     server_error} (the front-door error alarm counts the last)
 */
record AuditRecord(
    Instant time,
    String tenant,
    String principal,
    String rpc,
    String callId,
    Query query,
    long rows,
    long bytes,
    long durationMillis,
    String status,
    String outcome) {
  AuditRecord {
    requireNonNull(time, "time is null");
    requireNonNull(tenant, "tenant is null");
    requireNonNull(principal, "principal is null");
    requireNonNull(rpc, "rpc is null");
    requireNonNull(callId, "callId is null");
    requireNonNull(query, "query is null");
    requireNonNull(status, "status is null");
    requireNonNull(outcome, "outcome is null");
  }

  /**
   * What the handlers noted (see {@link CallNotes}); every part is empty for calls that run no
   * query (metadata, handshake, rejected calls).
   *
   * @param snapshots table → {@code <format> <version>} of the exact snapshots read
   * @param firstBatch from the DoGet's start until its first batch was ready
   * @param download from the DoGet's start until its last batch was handed over
   */
  record Query(
      Optional<String> queryId,
      Optional<String> jobId,
      Map<String, String> snapshots,
      Optional<Duration> planning,
      Optional<Duration> firstBatch,
      Optional<Duration> download,
      Optional<QueryStats> stats) {
    static final Query NONE =
        new Query(
            Optional.empty(),
            Optional.empty(),
            Map.of(),
            Optional.empty(),
            Optional.empty(),
            Optional.empty(),
            Optional.empty());

    Query {
      requireNonNull(queryId, "queryId is null");
      requireNonNull(jobId, "jobId is null");
      snapshots =
          Collections.unmodifiableSortedMap(
              new TreeMap<>(requireNonNull(snapshots, "snapshots is null")));
      requireNonNull(planning, "planning is null");
      requireNonNull(firstBatch, "firstBatch is null");
      requireNonNull(download, "download is null");
      requireNonNull(stats, "stats is null");
    }
  }
}
