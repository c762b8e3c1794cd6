package dev.lake.client.cli;

import dev.lake.client.LakeClient;
import dev.lake.client.QueryHandle;
import java.net.URI;
import java.util.Optional;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Parameters;

/** What status, fetch and cancel share: a handle argument and the connection it names. */
abstract class HandleCommand {
  @Mixin ConnectionOptions connection;
  @Mixin Verbosity verbosity;

  @Parameters(index = "0", paramLabel = "HANDLE", description = "The handle lake submit printed.")
  String handle;

  /** A client for the handle's server (or --url), to be closed by the caller. */
  LakeClient connect() {
    URI server = QueryHandle.serverOf(handle);
    return LakeClient.connect(connection.config(Optional.of(server)));
  }
}
