package dev.lake.app;

import dev.lake.frontdoor.PrincipalEntry;
import dev.lake.frontdoor.Principals;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code lake principals hash}: issues a static bearer token and prints the principals-file entry
 * that admits it (its SHA-256, never the token, goes into the file or secret). The token is printed
 * once and kept nowhere.
 */
@Command(
    name = "principals",
    mixinStandardHelpOptions = true,
    description = "Manage static bearer tokens of the principals file.",
    subcommands = {PrincipalsCommand.Hash.class})
final class PrincipalsCommand implements Runnable {
  @Spec CommandLine.Model.CommandSpec spec;

  @Override
  public void run() {
    spec.commandLine().usage(spec.commandLine().getOut());
  }

  @Command(
      name = "hash",
      mixinStandardHelpOptions = true,
      description =
          "Print a new token (or the one read with --token-stdin) and its principals-file entry.")
  static final class Hash implements Callable<Integer> {
    @Spec CommandLine.Model.CommandSpec spec;

    @Option(names = "--tenant", required = true, description = "Tenant ([A-Za-z0-9_-]{1,64}).")
    String tenant;

    @Option(names = "--id", required = true, description = "Principal id within the tenant.")
    String id;

    @Option(
        names = "--grant",
        description = "A grant (catalog.namespace or catalog.namespace.table); repeatable.")
    List<String> grants = List.of();

    @Option(names = "--expires", description = "Refuse the token from this instant (ISO-8601).")
    Instant expires;

    @Option(names = "--valid-for", description = "Refuse the token after this long (ISO-8601).")
    Duration validFor;

    @Option(
        names = "--token-stdin",
        description = "Hash the token read from the first line of stdin instead of a new one.")
    boolean tokenStdin;

    @Override
    public Integer call() throws IOException {
      if (expires != null && validFor != null) {
        throw new IllegalArgumentException("give --expires or --valid-for, not both");
      }
      Optional<Instant> until =
          Optional.ofNullable(expires)
              .or(
                  () ->
                      Optional.ofNullable(validFor)
                          .map(d -> Instant.now().plus(d).truncatedTo(ChronoUnit.SECONDS)));
      String token = tokenStdin ? readToken() : Principals.newToken();
      PrincipalEntry entry =
          new PrincipalEntry(Principals.sha256Hex(token), tenant, id, grants, until);
      PrintWriter out = spec.commandLine().getOut();
      if (!tokenStdin) {
        out.println("token (give it to " + id + "; it is stored nowhere): " + token);
      }
      out.println("principals file entry (add it to \"principals\"):");
      out.println(Principals.node(entry));
      out.flush();
      return 0;
    }

    private static String readToken() throws IOException {
      String line =
          new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8)).readLine();
      if (line == null || line.isBlank()) {
        throw new IllegalArgumentException("--token-stdin read no token");
      }
      if (line.trim().length() > Principals.MAX_TOKEN_CHARS) {
        throw new IllegalArgumentException(
            "a token may have at most " + Principals.MAX_TOKEN_CHARS + " characters");
      }
      return line.trim();
    }
  }
}
