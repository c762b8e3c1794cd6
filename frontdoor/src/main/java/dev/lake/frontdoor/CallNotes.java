package dev.lake.frontdoor;

import dev.lake.core.QueryStats;
import dev.lake.core.SnapshotSet;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import org.apache.arrow.flight.FlightProducer.CallContext;

/**
 * What a handler tells the audit trail and the meters about the call it serves: the query or job,
 * the exact snapshots, how long planning and streaming took, and what the execution cost. Only
 * identities and figures — never SQL text, tickets, tokens or error messages. A server without the
 * audit middleware gets {@link #NONE}.
 */
interface CallNotes {
  /** Names the query: an id joining a GetFlightInfo with the DoGet of its ticket. */
  void query(String queryId);

  /** The exact snapshots the call's statement reads. */
  void snapshots(SnapshotSet snapshots);

  /** Names the durable job the call submitted, polled or downloaded. */
  void job(String jobId);

  /** Admission, authorization, snapshot resolution and planning took {@code elapsed}. */
  void planned(Duration elapsed);

  /**
   * A DoGet stream ended (however it ended): {@code firstBatch} from its start until the first
   * batch was ready (the engine's execution up to its first output), {@code total} until the last
   * batch was handed to gRPC (the download), and the execution's accounting: a future that
   * completes once its last figure (the engine's memory sample) landed and never fails, so the
   * stream can end without waiting for it.
   */
  void streamed(Duration firstBatch, Duration total, CompletableFuture<QueryStats> stats);

  CallNotes NONE =
      new CallNotes() {
        @Override
        public void query(String queryId) {}

        @Override
        public void snapshots(SnapshotSet snapshots) {}

        @Override
        public void job(String jobId) {}

        @Override
        public void planned(Duration elapsed) {}

        @Override
        public void streamed(
            Duration firstBatch, Duration total, CompletableFuture<QueryStats> stats) {}
      };

  /** The notes of the current call: its audit record, or {@link #NONE}. */
  static CallNotes of(CallContext context) {
    return AuditMiddleware.of(context).<CallNotes>map(m -> m).orElse(NONE);
  }
}
