package dev.lake.app;

import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.Optional;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/** {@code lake aws-local}: the AWS deployment on this machine against an emulator. */
@Command(
    name = "aws-local",
    mixinStandardHelpOptions = true,
    description =
        "Run the AWS deployment on this machine: an emulator (LocalStack at"
            + " LAKE_TEST_AWS_ENDPOINT, else moto_server), TPC-H as Lance in S3 registered in"
            + " DynamoDB, the front door (serve --durable aws) and a worker process.")
final class AwsLocalCommand implements Callable<Integer> {
  @Spec CommandLine.Model.CommandSpec spec;

  @Option(names = "--port", defaultValue = "31337", description = "Port (0 = any free port).")
  int port;

  @Option(
      names = "--data-dir",
      defaultValue = ".lake-aws",
      description = "Logs, principals and the demo token.")
  Path dataDir;

  @Option(names = "--token", description = "Bearer token to accept instead of the demo token.")
  String token;

  @Option(names = "--scale", defaultValue = "0.01", description = "TPC-H scale factor.")
  double scale;

  @Option(
      names = "--replicas",
      defaultValue = "1",
      description =
          "Front doors to run (1-8): replica i listens on --port + i; all share the registry,"
              + " job table, queue and key ring, so any replica serves any ticket.")
  int replicas;

  @Option(
      names = "--emulator-port",
      defaultValue = "0",
      description =
          "Loopback port of the moto_server it starts (default 0 = any free port; unused when"
              + " LAKE_TEST_AWS_ENDPOINT names a running emulator).")
  int emulatorPort;

  @Override
  public Integer call() throws Exception {
    PrintWriter out = spec.commandLine().getOut();
    AwsLocal.Options options =
        new AwsLocal.Options(
            dataDir,
            "127.0.0.1",
            port,
            Optional.ofNullable(token),
            scale,
            Optional.empty(),
            java.util.Map.of(),
            replicas,
            emulatorPort);
    // before the emulator starts and the demo data is written
    for (int i = 0; i < replicas && port != 0; i++) {
      LakeCli.checkPortFree("127.0.0.1", port + i);
    }
    if (emulatorPort != 0) {
      LakeCli.checkPortFree("127.0.0.1", emulatorPort);
    }
    AwsLocal lake = AwsLocal.start(options, out);
    out.println("JDBC URL: " + lake.jdbcUrl());
    out.println("Token:    " + lake.token());
    out.println(
        "lake aws-local ready on "
            + String.join(" ", lake.urls())
            + " (front door and worker logs in "
            + dataDir.resolve("logs")
            + "; Ctrl-C stops)");
    out.flush();
    return LakeCli.serveUntilStopped(lake);
  }
}
