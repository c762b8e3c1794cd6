package dev.lake.client;

import static java.util.Objects.requireNonNull;

import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;

/**
 * How to reach one lake: its Flight SQL address, the bearer token and, for TLS, an optional CA file
 * (otherwise the JVM's trust store verifies the server). Validated once here.
 *
 * @param url {@code grpc+tcp://host:port} (plaintext, loopback deployments such as {@code lake
 *     local}) or {@code grpc+tls://host:port}; {@code grpc://} means plaintext too
 * @param token the bearer token sent on every call, if any
 * @param caFile PEM certificates trusted for a {@code grpc+tls} server instead of the trust store
 */
public record LakeClientConfig(URI url, Optional<String> token, Optional<Path> caFile) {
  /** Where {@code bin/lake local} listens by default. */
  public static final URI DEFAULT_URL = URI.create("grpc+tcp://127.0.0.1:31337");

  public LakeClientConfig {
    requireNonNull(url, "url is null");
    requireNonNull(token, "token is null");
    requireNonNull(caFile, "caFile is null");
    String scheme = url.getScheme();
    if (scheme == null
        || !(scheme.equals("grpc") || scheme.equals("grpc+tcp") || scheme.equals("grpc+tls"))) {
      throw new IllegalArgumentException(
          "url must be grpc+tcp://host:port or grpc+tls://host:port: " + url);
    }
    if (url.getHost() == null || url.getPort() < 1) {
      throw new IllegalArgumentException("url needs a host and a port: " + url);
    }
    if (token.isPresent() && (token.get().isBlank() || token.get().contains("\n"))) {
      throw new IllegalArgumentException("token must be one non-blank line");
    }
    if (caFile.isPresent() && !scheme.equals("grpc+tls")) {
      throw new IllegalArgumentException("a CA file needs a grpc+tls:// url: " + url);
    }
    if (caFile.isPresent() && !Files.isReadable(caFile.get())) {
      throw new IllegalArgumentException("CA file is not readable: " + caFile.get());
    }
  }

  /** The local default address without a token. */
  public static LakeClientConfig defaults() {
    return new LakeClientConfig(DEFAULT_URL, Optional.empty(), Optional.empty());
  }

  /** {@code url} with {@code token}, trusting the JVM's trust store for TLS. */
  public static LakeClientConfig of(String url, String token) {
    return new LakeClientConfig(
        parseUrl(url), Optional.of(requireNonNull(token, "token is null")), Optional.empty());
  }

  /** The same settings against another address. */
  public LakeClientConfig withUrl(URI other) {
    return new LakeClientConfig(other, token, caFile);
  }

  /** Whether the connection is encrypted. */
  public boolean tls() {
    return url.getScheme().equals("grpc+tls");
  }

  /** Whether the server is on this machine (loopback address or localhost). */
  public boolean loopback() {
    String host = url.getHost();
    return host.equals("localhost") || host.startsWith("127.") || host.equals("[::1]");
  }

  /** Parses a url, naming it in the error when it is not one. */
  public static URI parseUrl(String url) {
    requireNonNull(url, "url is null");
    try {
      return new URI(url.trim());
    } catch (java.net.URISyntaxException e) {
      throw new IllegalArgumentException("not a url: " + url, e);
    }
  }
}
