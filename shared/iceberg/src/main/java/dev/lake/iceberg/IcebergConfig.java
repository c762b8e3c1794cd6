package dev.lake.iceberg;

import static java.util.Objects.requireNonNull;

import dev.lake.core.Bounds;
import dev.lake.core.ErrorCode;
import dev.lake.core.LakeException;
import dev.lake.core.TableRef;
import io.soabase.recordbuilder.core.RecordBuilder;
import java.net.URI;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;

/**
 * The deployment's one optional Iceberg REST catalog: where it is, how to authenticate, which
 * namespaces/tables lake may expose, and the bounds on catalog access and the snapshot cache.
 * Validated on construction. Secrets (the OAuth2 credential and any property whose key looks
 * secret) live only in this record in process memory; {@link #toString()} redacts them.
 *
 * @param uri the REST catalog base URI: https, or http to a loopback address only (catalog traffic
 *     and an OAuth2 secret never travel in plaintext between hosts; the same rule holds for the
 *     OAuth2 server URI)
 * @param warehouse the warehouse the catalog serves, if it needs one
 * @param prefix an explicit path prefix, if the catalog's config endpoint does not supply one
 * @param oauth2 optional OAuth2 client credentials
 * @param allowlist which namespaces and tables may be resolved at all (deployment-side admission)
 * @param connectTimeout TCP connect timeout to the catalog
 * @param readTimeout socket read timeout to the catalog
 * @param maxRetries the Iceberg HTTP client's own retry bound ({@code rest.client.max-retries})
 * @param cacheMaxKeys at most this many tables in the snapshot cache
 * @param cacheFresh a cached resolution younger than this is served without asking the catalog
 * @param cacheStale a cached resolution up to this old is served while one refresh runs
 * @param properties extra catalog/FileIO properties passed to the Iceberg client as is, e.g. {@code
 *     s3.endpoint}, {@code s3.path-style-access}, {@code s3.access-key-id}, {@code client.region}
 */
@RecordBuilder
@RecordBuilder.Options(emptyDefaultForOptional = true)
public record IcebergConfig(
    URI uri,
    Optional<String> warehouse,
    Optional<String> prefix,
    Optional<OAuth2> oauth2,
    Allowlist allowlist,
    @RecordBuilder.Initializer("DEFAULT_CONNECT_TIMEOUT") Duration connectTimeout,
    @RecordBuilder.Initializer("DEFAULT_READ_TIMEOUT") Duration readTimeout,
    @RecordBuilder.Initializer("DEFAULT_MAX_RETRIES") int maxRetries,
    @RecordBuilder.Initializer("DEFAULT_CACHE_MAX_KEYS") int cacheMaxKeys,
    @RecordBuilder.Initializer("DEFAULT_CACHE_FRESH") Duration cacheFresh,
    @RecordBuilder.Initializer("DEFAULT_CACHE_STALE") Duration cacheStale,
    @RecordBuilder.Initializer("NO_PROPERTIES") Map<String, String> properties)
    implements IcebergConfigBuilder.With {
  public static final Duration DEFAULT_CONNECT_TIMEOUT = Duration.ofSeconds(5);
  public static final Duration DEFAULT_READ_TIMEOUT = Duration.ofSeconds(30);
  public static final int DEFAULT_MAX_RETRIES = 3;
  public static final int DEFAULT_CACHE_MAX_KEYS = 10_000;
  public static final Duration DEFAULT_CACHE_FRESH = Duration.ofSeconds(5);
  public static final Duration DEFAULT_CACHE_STALE = Duration.ofSeconds(60);
  public static final Map<String, String> NO_PROPERTIES = Map.of();

  static final Duration MIN_DURATION = Duration.ofMillis(1);
  static final Duration MAX_TIMEOUT = Duration.ofMinutes(5);
  static final int MAX_RETRIES = 10;
  static final int MAX_CACHE_KEYS = 1_000_000;
  static final Duration MAX_CACHE_STALE = Duration.ofHours(1);

  public IcebergConfig {
    requireNonNull(uri, "uri is null");
    requireNonNull(warehouse, "warehouse is null");
    requireNonNull(prefix, "prefix is null");
    requireNonNull(oauth2, "oauth2 is null");
    requireNonNull(allowlist, "allowlist is null");
    requireNonNull(connectTimeout, "connectTimeout is null");
    requireNonNull(readTimeout, "readTimeout is null");
    requireNonNull(cacheFresh, "cacheFresh is null");
    requireNonNull(cacheStale, "cacheStale is null");
    properties = Map.copyOf(requireNonNull(properties, "properties is null"));
    String scheme = uri.getScheme() == null ? "" : uri.getScheme().toLowerCase(Locale.ROOT);
    if (!scheme.equals("http") && !scheme.equals("https") || uri.getHost() == null) {
      throw invalid("Iceberg REST URI must be an absolute http(s) URI: " + redactUri(uri));
    }
    if (uri.getUserInfo() != null) {
      throw invalid("Iceberg REST URI must not carry user info; use OAuth2 credentials");
    }
    requireTlsOffLoopback("Iceberg REST URI", uri);
    oauth2.flatMap(OAuth2::serverUri).ifPresent(u -> requireTlsOffLoopback("OAuth2 server URI", u));
    warehouse.ifPresent(w -> requireNonBlank(w, "warehouse"));
    prefix.ifPresent(p -> requireNonBlank(p, "prefix"));
    Bounds.check("connectTimeout", connectTimeout, MIN_DURATION, MAX_TIMEOUT);
    Bounds.check("readTimeout", readTimeout, MIN_DURATION, MAX_TIMEOUT);
    Bounds.check("maxRetries", maxRetries, 0, MAX_RETRIES);
    Bounds.check("cacheMaxKeys", cacheMaxKeys, 1, MAX_CACHE_KEYS);
    Bounds.check("cacheFresh", cacheFresh, MIN_DURATION, MAX_CACHE_STALE);
    Bounds.check("cacheStale", cacheStale, MIN_DURATION, MAX_CACHE_STALE);
    if (cacheStale.compareTo(cacheFresh) <= 0) {
      throw invalid(
          "cacheStale must be longer than cacheFresh (" + cacheFresh + "): " + cacheStale);
    }
    for (String key : properties.keySet()) {
      if (key.startsWith("rest.client.") || key.equals("uri") || key.equals("credential")) {
        throw invalid("property " + key + " is set by IcebergConfig itself; use its field");
      }
    }
  }

  /** A config with every default: {@code uri} and the allowlist are all a deployment must name. */
  public static IcebergConfig of(URI uri, Allowlist allowlist) {
    return IcebergConfigBuilder.builder().uri(uri).allowlist(allowlist).build();
  }

  /**
   * The factory for {@code bin/lake local --iceberg-rest URI [--iceberg-warehouse W]
   * --iceberg-allow ns[,ns…]}: parses the flag values and applies every other default.
   *
   * @param restUri the {@code --iceberg-rest} value
   * @param warehouse the {@code --iceberg-warehouse} value, or null
   * @param allow the {@code --iceberg-allow} value (see {@link Allowlist#parse})
   */
  public static IcebergConfig fromFlags(String restUri, String warehouse, String allow) {
    return of(parseUri(restUri), Allowlist.parse(allow)).withWarehouse(warehouse);
  }

  /** Parses an http(s) catalog URI, with a {@link ErrorCode#INVALID_ARGUMENT} error if bad. */
  public static URI parseUri(String text) {
    requireNonNull(text, "text is null");
    try {
      return URI.create(text.trim());
    } catch (IllegalArgumentException e) {
      // the reason and position, not the text: a malformed URI may still hold credentials
      String why =
          e.getCause() instanceof java.net.URISyntaxException syntax
              ? " (" + syntax.getReason() + " at index " + syntax.getIndex() + ")"
              : "";
      throw invalid("Iceberg REST URI is not a valid URI" + why);
    }
  }

  /** This config with {@code value} as warehouse; null or blank means none. */
  public IcebergConfig withWarehouse(String value) {
    return withWarehouse(Optional.ofNullable(value).filter(v -> !v.isBlank()));
  }

  public IcebergConfig withOAuth2(OAuth2 value) {
    return withOauth2(Optional.of(value));
  }

  public IcebergConfig withTimeouts(Duration connect, Duration read, int retries) {
    return with().connectTimeout(connect).readTimeout(read).maxRetries(retries).build();
  }

  public IcebergConfig withCache(int maxKeys, Duration fresh, Duration stale) {
    return with().cacheMaxKeys(maxKeys).cacheFresh(fresh).cacheStale(stale).build();
  }

  @Override
  public String toString() {
    Map<String, String> shown = new TreeMap<>();
    properties.forEach((k, v) -> shown.put(k, isSecretKey(k) ? "<redacted>" : v));
    return "IcebergConfig[uri="
        + redactUri(uri)
        + ", warehouse="
        + warehouse.orElse("-")
        + ", prefix="
        + prefix.orElse("-")
        + ", oauth2="
        + oauth2.map(OAuth2::toString).orElse("-")
        + ", allowlist="
        + allowlist
        + ", connectTimeout="
        + connectTimeout
        + ", readTimeout="
        + readTimeout
        + ", maxRetries="
        + maxRetries
        + ", cache="
        + cacheMaxKeys
        + "/"
        + cacheFresh
        + "/"
        + cacheStale
        + ", properties="
        + shown
        + "]";
  }

  /** Whether a property value must never be shown (keys, secrets, tokens, passwords). */
  static boolean isSecretKey(String key) {
    String k = key.toLowerCase(Locale.ROOT);
    return k.contains("secret")
        || k.contains("password")
        || k.contains("token")
        || k.contains("credential")
        || k.contains("session")
        || k.contains("access-key");
  }

  /**
   * Refuses plain http to anything but a loopback address (the literal {@code localhost}, {@code
   * 127.0.0.0/8} or {@code ::1}; names are not resolved, so a name never counts as loopback).
   */
  private static void requireTlsOffLoopback(String what, URI uri) {
    String scheme = uri.getScheme() == null ? "" : uri.getScheme().toLowerCase(Locale.ROOT);
    if (scheme.equals("https")) {
      return;
    }
    if (!scheme.equals("http") || uri.getHost() == null || !isLoopback(uri.getHost())) {
      throw invalid(
          what
              + " must be https off loopback: "
              + redactUri(uri)
              + " (lake sends catalog requests and OAuth2 credentials over TLS only)");
    }
  }

  static boolean isLoopback(String host) {
    String h =
        host.startsWith("[") && host.endsWith("]") ? host.substring(1, host.length() - 1) : host;
    if (h.equalsIgnoreCase("localhost")) {
      return true;
    }
    if (!h.matches("[0-9.]+") && !h.contains(":")) {
      return false; // a name: never resolved here
    }
    try {
      return java.net.InetAddress.getByName(h).isLoopbackAddress(); // a literal: no lookup
    } catch (java.net.UnknownHostException e) {
      return false;
    }
  }

  private static String redactUri(URI uri) {
    return uri.getScheme() + "://" + uri.getHost() + (uri.getPort() > 0 ? ":" + uri.getPort() : "");
  }

  private static void requireNonBlank(String value, String name) {
    if (value.isBlank()) {
      throw invalid(name + " is blank");
    }
  }

  static LakeException invalid(String message) {
    return new LakeException(ErrorCode.INVALID_ARGUMENT, message);
  }

  /**
   * OAuth2 client credentials for the catalog: {@code credential} is {@code client_id:secret} as
   * Iceberg's client expects. Held only in memory; {@link #toString()} shows neither part.
   */
  public record OAuth2(String credential, Optional<URI> serverUri, Optional<String> scope) {
    public OAuth2 {
      requireNonNull(credential, "credential is null");
      requireNonNull(serverUri, "serverUri is null");
      requireNonNull(scope, "scope is null");
      if (credential.isBlank()) {
        throw invalid("OAuth2 credential is blank");
      }
      scope.ifPresent(s -> requireNonBlank(s, "OAuth2 scope"));
    }

    @Override
    public String toString() {
      return "OAuth2[credential=<redacted>, serverUri="
          + serverUri.map(IcebergConfig::redactUri).orElse("-")
          + ", scope="
          + scope.orElse("-")
          + "]";
    }
  }

  /**
   * The deployment allowlist: whole namespaces ({@code sales}, nested {@code "a.b"}) and single
   * tables ({@code sales.orders}, {@code "a.b".t}). A table outside it does not exist for lake.
   *
   * @param namespaces allowed namespaces (every table directly in them)
   * @param tables allowed single tables
   */
  public record Allowlist(Set<String> namespaces, Set<TableRef> tables) {
    public Allowlist {
      namespaces = Set.copyOf(requireNonNull(namespaces, "namespaces is null"));
      tables = Set.copyOf(requireNonNull(tables, "tables is null"));
      for (TableRef t : tables) {
        if (!t.catalog().equals(IcebergFormat.CATALOG)) {
          throw invalid("allowlisted table " + t + " is not in the iceberg catalog");
        }
      }
      for (String ns : namespaces) {
        new TableRef(IcebergFormat.CATALOG, ns, "t"); // validates the namespace name
      }
    }

    /**
     * Parses a comma-separated list: {@code ns}, {@code "a.b"} (nested namespace), {@code ns.t},
     * {@code "a.b".t}; an optional leading {@code iceberg.} is accepted. Names are lower-cased.
     */
    public static Allowlist parse(String text) {
      requireNonNull(text, "text is null");
      Set<String> namespaces = new LinkedHashSet<>();
      Set<TableRef> tables = new LinkedHashSet<>();
      List<String> entries = new ArrayList<>();
      for (String e : text.split(",")) {
        if (!e.isBlank()) {
          entries.add(e.trim());
        }
      }
      if (entries.isEmpty()) {
        throw invalid("Iceberg allowlist is empty: name at least one namespace or table");
      }
      for (String entry : entries) {
        String prefix = IcebergFormat.CATALOG + ".";
        String e = entry.startsWith(prefix) ? entry.substring(prefix.length()) : entry;
        if (e.startsWith("\"")) {
          int close = e.indexOf('"', 1);
          if (close < 0) {
            throw invalid("Iceberg allowlist entry " + entry + " has an unclosed quote");
          }
          String ns = e.substring(1, close);
          String rest = e.substring(close + 1);
          if (rest.isEmpty()) {
            namespaces.add(new TableRef(IcebergFormat.CATALOG, ns, "t").namespace());
          } else if (rest.startsWith(".")) {
            tables.add(new TableRef(IcebergFormat.CATALOG, ns, rest.substring(1)));
          } else {
            throw invalid("Iceberg allowlist entry " + entry + " is malformed");
          }
        } else {
          int dot = e.indexOf('.');
          if (dot < 0) {
            namespaces.add(new TableRef(IcebergFormat.CATALOG, e, "t").namespace());
          } else if (e.indexOf('.', dot + 1) < 0) {
            tables.add(
                new TableRef(IcebergFormat.CATALOG, e.substring(0, dot), e.substring(dot + 1)));
          } else {
            throw invalid(
                "Iceberg allowlist entry " + entry + ": quote a nested namespace, e.g. \"a.b\".t");
          }
        }
      }
      return new Allowlist(namespaces, tables);
    }

    /** Whether {@code ref} may be resolved at all. */
    public boolean allows(TableRef ref) {
      return ref.catalog().equals(IcebergFormat.CATALOG)
          && (namespaces.contains(ref.namespace()) || tables.contains(ref));
    }

    @Override
    public String toString() {
      List<String> all = new ArrayList<>();
      namespaces.stream().sorted().forEach(n -> all.add(n.contains(".") ? "\"" + n + "\"" : n));
      tables.stream().sorted().forEach(t -> all.add(t.toString().substring(8)));
      return String.join(",", all);
    }
  }
}
