package dev.lake.client.cli;

import dev.lake.client.LakeClientConfig;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;
import picocli.CommandLine.Option;

/**
 * How every client command reaches lake. Each flag {@code --foo-bar} defaults to the environment
 * variable {@code LAKE_FOO_BAR}. Without a token, a loopback server gets the demo token that {@code
 * lake local} keeps in its data directory, so after {@code bin/lake local} a bare {@code bin/lake
 * sql -e "SELECT 1"} works.
 */
final class ConnectionOptions {
  @Option(
      names = "--url",
      defaultValue = "${env:LAKE_URL}",
      description = "Flight SQL address (default grpc+tcp://127.0.0.1:31337; env LAKE_URL).")
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
      description = "Data directory of bin/lake local, for its demo token (default .lake).")
  Path dataDir;

  /** The connection for a command; {@code handleUrl} is the server a query handle names. */
  LakeClientConfig config(Optional<URI> handleUrl) {
    URI target =
        url != null && !url.isBlank()
            ? LakeClientConfig.parseUrl(url)
            : handleUrl.orElse(LakeClientConfig.DEFAULT_URL);
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
                  ? " (bin/lake local keeps its demo token in "
                      + dataDir.resolve("demo-token")
                      + ")"
                  : ""));
    }
    return new LakeClientConfig(target, resolved, Optional.ofNullable(caFile));
  }

  private Optional<String> demoToken() {
    Path file = dataDir.resolve("demo-token");
    if (!Files.isRegularFile(file)) {
      return Optional.empty();
    }
    try {
      String value = Files.readString(file, StandardCharsets.UTF_8).strip();
      return value.isEmpty() ? Optional.empty() : Optional.of(value);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read the demo token " + file, e);
    }
  }
}
