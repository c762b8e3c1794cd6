package dev.lake.client.cli;

import dev.lake.client.LakeClientException;
import java.io.PrintWriter;
import java.net.URI;
import java.util.Arrays;
import java.util.Optional;
import org.apache.arrow.flight.FlightStatusCode;
import picocli.CommandLine;
import picocli.CommandLine.Command;

/**
 * The client commands of {@code bin/lake}: {@code sql}, {@code submit}, {@code status}, {@code
 * fetch}, {@code cancel}. Exit codes: 0 success, 1 the query or a call failed (one line on stderr
 * naming the status), 2 a usage error (bad flags, no SQL, a malformed handle).
 */
@Command(
    name = "lake",
    mixinStandardHelpOptions = true,
    description = "Query lake from the terminal.",
    subcommands = {
      SqlCommand.class,
      SubmitCommand.class,
      StatusCommand.class,
      FetchCommand.class,
      CancelCommand.class
    })
public final class ClientCli implements Runnable {
  @CommandLine.Spec CommandLine.Model.CommandSpec spec;

  public static void main(String[] args) {
    quietLogging(Arrays.asList(args).contains("--verbose"));
    System.exit(commandLine().execute(args));
  }

  /**
   * Library logging (Arrow, gRPC, Netty) goes to stderr at WARN, or INFO with {@code --verbose};
   * set before any logger exists.
   */
  static void quietLogging(boolean verbose) {
    System.setProperty("org.slf4j.simpleLogger.defaultLogLevel", verbose ? "info" : "warn");
    System.setProperty("org.slf4j.simpleLogger.logFile", "System.err");
  }

  /** The command line with lake's exit codes and one-line errors. */
  static CommandLine commandLine() {
    CommandLine cli = new CommandLine(new ClientCli());
    cli.setCaseInsensitiveEnumValuesAllowed(true);
    cli.setParameterExceptionHandler(
        (ex, args) -> {
          PrintWriter err = ex.getCommandLine().getErr();
          err.println("lake: " + ex.getMessage());
          err.println(
              "Try 'lake " + ex.getCommandLine().getCommandName() + " --help' for the options.");
          return CommandLine.ExitCode.USAGE;
        });
    cli.setExecutionExceptionHandler(
        (ex, cmd, parsed) -> {
          PrintWriter err = cmd.getErr();
          if (ex instanceof ClosedOutputException) {
            return CommandLine.ExitCode.OK; // | head: the reader has what it wanted
          }
          if (ex instanceof LakeClientException lake) {
            err.println("lake: " + describe(lake, ConnectionOptions.target(cmd)));
            return 1;
          }
          if (ex instanceof IllegalArgumentException) {
            err.println("lake: " + firstLine(ex.getMessage()));
            return CommandLine.ExitCode.USAGE;
          }
          err.println(
              "lake: " + firstLine(ex.getMessage() == null ? ex.toString() : ex.getMessage()));
          return 1;
        });
    return cli;
  }

  /** One line for a failed call; a server that cannot be reached is named ({@code server}). */
  static String describe(LakeClientException e, Optional<URI> server) {
    if (e.status() == FlightStatusCode.UNAVAILABLE
        && e.errorCode().isEmpty()
        && (e.getMessage().contains("io exception")
            || e.getMessage().contains("Connection refused"))) {
      return "UNAVAILABLE: cannot reach lake"
          + server.map(s -> " at " + s).orElse("")
          + " ("
          + e.getMessage()
          + "); is the server running? (--url or LAKE_URL names another)";
    }
    return e.describe();
  }

  /** Messages of libraries may carry stack traces; a terminal gets their first line. */
  static String firstLine(String message) {
    int end = message.indexOf('\n');
    return (end < 0 ? message : message.substring(0, end)).strip();
  }

  @Override
  public void run() {
    spec.commandLine().usage(spec.commandLine().getOut());
  }
}
