package dev.lake.client.cli;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.lake.client.LakeClient;
import dev.lake.client.LakeClientException;
import dev.lake.client.QueryStatus;
import java.util.concurrent.Callable;
import org.apache.arrow.flight.FlightStatusCode;
import picocli.CommandLine.Command;

/**
 * {@code lake status HANDLE}: one JSON object on stdout: state (RUNNING, SUCCEEDED, CANCELLED or
 * FAILED), progress, rows, bytes, parts, expiresAt. A failed query also prints its error line on
 * stderr and exits 1; an unknown or expired handle is an error line only.
 */
@Command(
    name = "status",
    mixinStandardHelpOptions = true,
    description = "Print the state of a durable query as JSON.")
final class StatusCommand extends HandleCommand implements Callable<Integer> {
  private static final ObjectMapper JSON = new ObjectMapper();

  @Override
  public Integer call() {
    ObjectNode node = JSON.createObjectNode();
    try (LakeClient client = connect()) {
      QueryStatus status = client.resume(handle).poll();
      node.put("state", status.state().name());
      node.put("progress", status.progress());
      if (status.done()) {
        node.put("rows", status.rows());
        node.put("bytes", status.bytes());
      } else {
        node.putNull("rows");
        node.putNull("bytes");
      }
      node.put("parts", status.parts());
      status
          .expiresAt()
          .ifPresentOrElse(
              e -> node.put("expiresAt", e.toString()), () -> node.putNull("expiresAt"));
    } catch (LakeClientException e) {
      if (e.status() == FlightStatusCode.CANCELLED) {
        node.put("state", "CANCELLED");
      } else if (isJobFailure(e)) {
        node.put("state", "FAILED");
        node.put("error", e.describe());
        System.out.println(node.toString());
        throw e;
      } else {
        throw e;
      }
    }
    System.out.println(node.toString());
    return 0;
  }

  /** Codes that say the handle or the call is at fault, not the query. */
  private static final java.util.Set<String> NOT_THE_QUERY =
      java.util.Set.of(
          "NOT_FOUND",
          "TICKET_INVALID",
          "TICKET_EXPIRED",
          "TICKET_FOREIGN",
          "UNAUTHENTICATED",
          "PERMISSION_DENIED",
          "OVERLOADED",
          "EXTERNAL_UNAVAILABLE");

  /** The query itself failed (as opposed to the handle being unknown, expired or not ours). */
  private static boolean isJobFailure(LakeClientException e) {
    if (e.errorCode().isPresent()) {
      return !NOT_THE_QUERY.contains(e.errorCode().get());
    }
    return !(e.status() == FlightStatusCode.UNAUTHENTICATED
        || e.status() == FlightStatusCode.UNAUTHORIZED
        || e.status() == FlightStatusCode.UNAVAILABLE
        || e.status() == FlightStatusCode.NOT_FOUND);
  }
}
