package dev.lake.client.cli;

import dev.lake.client.LakeClientConfig;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;
import picocli.CommandLine;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;

/**
 * How every client command reaches lake. Each flag {@code --foo-bar} defaults to the environment
 * variable {@code LAKE_FOO_BAR}. Without a URL, the address that {@code bin/lake local} wrote into
 * its data directory ({@code url}) is used, else the default port; without a token, a loopback
 * server gets the demo token that {@code bin/lake local} keeps there ({@code demo-token}). So after
 * {@code bin/lake local [--port N]} a bare {@code bin/lake sql -e "SELECT 1"} works.
 */
final class ConnectionOptions {
  /** The files {@code bin/lake local} writes into its data directory (LocalLake). */
  static final String URL_FILE = "url";

  static final String TOKEN_FILE = "demo-token";

  @Option(
      names = "--url",
      defaultValue = "${env:LAKE_URL}",
      description =
          "Flight SQL address, e.g. grpc+tcp://127.0.0.1:31337 or grpc+tls://host:443 (env"
              + " LAKE_URL; default: the address bin/lake local wrote into --data-dir, else"
              + " grpc+tcp://127.0.0.1:31337).")
  String url;

  @Option(
      names = "--token",
      defaultValue = "${env:LAKE_TOKEN}",
      description = "Bearer token (env LAKE_TOKEN; default: the local demo token).")
  String token;

  @Option(
      names = "--ca-file",
      defaultValue = "${env:LAKE_CA_FILE}",
      description = "PEM CA certificates for a grpc+tls:// server (default: system trust store).")
  Path caFile;

  @Option(
      names = "--data-dir",
      defaultValue = "${env:LAKE_DATA_DIR:-.lake}",
      description =
          "Data directory of bin/lake local, for its address and demo token (env LAKE_DATA_DIR;"
              + " default .lake).")
  Path dataDir;

  /** The server the last {@link #config} call chose; named when it cannot be reached. */
  private URI target;

  /** The server the command's connection options chose, if it got that far. */
  static Optional<URI> target(CommandLine command) {
    return command.getCommandSpec().mixins().values().stream()
        .map(CommandSpec::userObject)
        .filter(ConnectionOptions.class::isInstance)
        .map(o -> ((ConnectionOptions) o).target)
        .filter(java.util.Objects::nonNull)
        .findFirst();
  }

  /** The connection for a command; {@code handleUrl} is the server a query handle names. */
  LakeClientConfig config(Optional<URI> handleUrl) {
    target =
        url != null && !url.isBlank()
            ? LakeClientConfig.parseUrl(url)
            : handleUrl.or(this::localUrl).orElse(LakeClientConfig.DEFAULT_URL);
    LakeClientConfig bare =
        new LakeClientConfig(target, Optional.empty(), Optional.ofNullable(caFile));
    Optional<String> resolved =
        token != null && !token.isBlank()
            ? Optional.of(token.strip())
            : bare.loopback() ? demoToken() : Optional.empty();
    if (resolved.isEmpty()) {
      throw new IllegalArgumentException(
          "no token: pass --token or set LAKE_TOKEN"
              + (bare.loopback()
                  ? " (bin/lake local keeps its demo token in " + dataDir.resolve(TOKEN_FILE) + ")"
                  : ""));
    }
    return new LakeClientConfig(target, resolved, Optional.ofNullable(caFile));
  }

  private Optional<String> demoToken() {
    return readLine(dataDir.resolve(TOKEN_FILE));
  }

  private Optional<URI> localUrl() {
    Path file = dataDir.resolve(URL_FILE);
    return readLine(file)
        .map(
            text -> {
              try {
                return LakeClientConfig.parseUrl(text);
              } catch (IllegalArgumentException e) {
                throw new IllegalArgumentException(
                    file + " does not hold a lake address (" + e.getMessage() + "); pass --url");
              }
            });
  }

  /** The stripped content of a small file bin/lake local wrote; empty when there is none. */
  private static Optional<String> readLine(Path file) {
    if (!Files.isRegularFile(file)) {
      return Optional.empty();
    }
    try {
      String value = Files.readString(file, StandardCharsets.UTF_8).strip();
      return value.isEmpty() ? Optional.empty() : Optional.of(value);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read " + file, e);
    }
  }
}
