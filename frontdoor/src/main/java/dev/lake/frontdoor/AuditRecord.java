package dev.lake.frontdoor;

import static java.util.Objects.requireNonNull;

import java.time.Instant;
import java.util.List;
import java.util.Optional;

/**
 * What the audit trail keeps of one RPC. Nothing a client sent verbatim enters: no token, header,
 * ticket, SQL text or error message — only identities, the RPC's name, counts and the status.
 *
 * @param tenant the principal's tenant, or {@code -} when the call was not authenticated
 * @param principal the principal's id, or {@code -}
 * @param rpc the Flight method (e.g. {@code DO_GET}, {@code GET_FLIGHT_INFO})
 * @param callId a fresh id per call, to join this line with the application log
 * @param jobId the durable job the call submitted or read, when a handler named it
 * @param snapshots the snapshot set the call read ({@code lake.ns.t@version}), when named
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
    Optional<String> jobId,
    List<String> snapshots,
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
    requireNonNull(jobId, "jobId is null");
    snapshots = List.copyOf(requireNonNull(snapshots, "snapshots is null"));
    requireNonNull(status, "status is null");
    requireNonNull(outcome, "outcome is null");
  }
}
