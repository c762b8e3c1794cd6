package dev.lake.client;

import static java.util.Objects.requireNonNull;

import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Optional;

/**
 * How to reach one lake: its Flight SQL address, the bearer token and, for TLS, an optional CA file
 * (otherwise the JVM's trust store verifies the server). Validated once here.
 *
 * @param url {@code grpc+tcp://host:port} (plaintext, loopback deployments such as {@code lake
 *     local}) or {@code grpc+tls://host:port}; {@code grpc://} means plaintext too
 * @param token the bearer token sent on every call, if any
 * @param caFile PEM certificates trusted for a {@code grpc+tls} server instead of the trust store
 * @param timeout the deadline of each interactive query, sent as {@value #TIMEOUT_HEADER} (1 ms -
 *     24 h; the server accepts it up to its {@code --max-query-timeout} and answers TIMED_OUT when
 *     it passes); empty: the server's default ({@code --query-timeout}). Durable queries are
 *     bounded by the server's durable deadline ({@code --durable-query-timeout}) instead.
 */
public record LakeClientConfig(
    URI url, Optional<String> token, Optional<Path> caFile, Optional<Duration> timeout) {
  /** Where {@code bin/lake local} listens by default. */
  public static final URI DEFAULT_URL = URI.create("grpc+tcp://127.0.0.1:31337");

  /** Request header carrying the client's interactive deadline in milliseconds. */
  public static final String TIMEOUT_HEADER = "x-lake-timeout-ms";

  /** The longest deadline a client may ask for (servers cap it lower by default). */
  public static final Duration MAX_TIMEOUT = Duration.ofHours(24);

  public LakeClientConfig {
    requireNonNull(url, "url is null");
    requireNonNull(token, "token is null");
    requireNonNull(caFile, "caFile is null");
    requireNonNull(timeout, "timeout is null");
    if (timeout.isPresent()
        && (timeout.get().toMillis() < 1 || timeout.get().compareTo(MAX_TIMEOUT) > 0)) {
      throw new IllegalArgumentException("timeout must be between 1 ms and 24 h: " + timeout.get());
    }
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

  /** {@code url}, {@code token} and {@code caFile} with the server's default deadline. */
  public LakeClientConfig(URI url, Optional<String> token, Optional<Path> caFile) {
    this(url, token, caFile, Optional.empty());
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
    return new LakeClientConfig(other, token, caFile, timeout);
  }

  /** The same settings with {@code deadline} for every interactive query. */
  public LakeClientConfig withTimeout(Duration deadline) {
    return new LakeClientConfig(
        url, token, caFile, Optional.of(requireNonNull(deadline, "deadline is null")));
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
