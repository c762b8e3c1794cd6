package dev.lake.client.cli;

import dev.lake.client.LakeClient;
import java.util.concurrent.Callable;
import org.apache.arrow.flight.CancelStatus;
import picocli.CommandLine.Command;

/** {@code lake cancel HANDLE}: cancels a durable query and says what happened. */
@Command(name = "cancel", mixinStandardHelpOptions = true, description = "Cancel a durable query.")
final class CancelCommand extends HandleCommand implements Callable<Integer> {
  @Override
  public Integer call() {
    try (LakeClient client = connect()) {
      CancelStatus status = client.resume(handle).cancel();
      System.out.println(
          switch (status) {
            case CANCELLED -> "cancelled";
            case CANCELLING -> "cancelling: the running query stops shortly";
            case NOT_CANCELLABLE -> "not cancellable: the query already finished";
            case UNSPECIFIED -> "unknown: the server did not say";
          });
    }
    return 0;
  }
}
