package dev.lake.client;

import static java.util.Objects.requireNonNull;

import java.time.Instant;
import java.util.List;
import java.util.Optional;
import org.apache.arrow.flight.FlightEndpoint;
import org.apache.arrow.vector.types.pojo.Schema;

/**
 * What one poll of a durable query answered. A failed or cancelled query is not a status: polling
 * it throws {@link LakeClientException} with the query's error ({@code CANCELLED} when cancelled).
 *
 * @param state RUNNING (pending or executing) or SUCCEEDED
 * @param progress in [0, 1] (1 once SUCCEEDED)
 * @param rows total rows once SUCCEEDED, else -1
 * @param bytes total bytes of the result parts once SUCCEEDED, else -1
 * @param expiresAt when the query and its result expire, when the server said
 * @param schema the result schema
 * @param endpoints one per result part, in order, once SUCCEEDED
 */
public record QueryStatus(
    State state,
    double progress,
    long rows,
    long bytes,
    Optional<Instant> expiresAt,
    Schema schema,
    List<FlightEndpoint> endpoints) {
  /** Where a durable query is. */
  public enum State {
    RUNNING,
    SUCCEEDED
  }

  public QueryStatus {
    requireNonNull(state, "state is null");
    requireNonNull(expiresAt, "expiresAt is null");
    requireNonNull(schema, "schema is null");
    endpoints = List.copyOf(requireNonNull(endpoints, "endpoints is null"));
    if (!(progress >= 0 && progress <= 1)) {
      throw new IllegalArgumentException("progress must be in [0, 1]: " + progress);
    }
  }

  public boolean done() {
    return state == State.SUCCEEDED;
  }

  /** How many result parts there are (0 until SUCCEEDED). */
  public int parts() {
    return endpoints.size();
  }
}
