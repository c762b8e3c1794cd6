package dev.lake.frontdoor;

import static java.util.Objects.requireNonNull;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.lake.core.ErrorCode;
import dev.lake.core.Grant;
import dev.lake.core.Json;
import dev.lake.core.LakeException;
import dev.lake.core.Principal;
import dev.lake.core.local.LocalFiles;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Clock;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Optional;

/**
 * The deployment's principals: bearer-token hashes mapped to principals, from a JSON file {@code
 * {"principals":[{"tokenSha256":"<hex>","tenant":"t","id":"alice","grants":["lake.tpch"],
 * "expires":"2027-01-01T00:00:00Z"}]}} ({@code expires} optional). Raw tokens are never stored; a
 * presented token is hashed and compared in constant time against every entry. One instance is one
 * immutable set; {@link ReloadingPrincipals} swaps sets when the file changes.
 */
public final class Principals implements Authenticator {
  /** Tokens longer than this are rejected before hashing. */
  public static final int MAX_TOKEN_CHARS = 4096;

  private final List<PrincipalEntry> entries;
  private final List<byte[]> hashes;
  // each entry's principal, built (grants parsed) once instead of on every call
  private final List<Principal> principals;
  private final Clock clock;

  public Principals(List<PrincipalEntry> entries) {
    this(entries, Clock.systemUTC());
  }

  /** Principals whose expiry is judged by {@code clock}. */
  public Principals(List<PrincipalEntry> entries, Clock clock) {
    this.clock = requireNonNull(clock, "clock is null");
    this.entries = List.copyOf(requireNonNull(entries, "entries is null"));
    List<byte[]> h = new ArrayList<>();
    for (PrincipalEntry e : this.entries) {
      byte[] hash = HexFormat.of().parseHex(e.tokenSha256());
      for (byte[] other : h) {
        if (MessageDigest.isEqual(other, hash)) {
          throw new IllegalArgumentException("two principals share one token hash");
        }
      }
      h.add(hash);
    }
    this.hashes = List.copyOf(h);
    this.principals = this.entries.stream().map(PrincipalEntry::principal).toList();
  }

  /**
   * The principal holding {@code token}, or empty (also when its entry expired). Compares against
   * every entry.
   */
  public Optional<Principal> authenticate(String token) {
    int i = indexOf(token);
    return i < 0 || entries.get(i).expiredAt(clock.instant())
        ? Optional.empty()
        : Optional.of(principals.get(i));
  }

  @Override
  public Principal resolvePrincipal(String token) {
    int i = indexOf(token);
    if (i < 0) {
      throw new LakeException(ErrorCode.UNAUTHENTICATED, "Unknown bearer token");
    }
    PrincipalEntry entry = entries.get(i);
    if (entry.expiredAt(clock.instant())) {
      throw new LakeException(
          ErrorCode.UNAUTHENTICATED,
          "Bearer token expired at " + entry.expires().orElseThrow() + "; ask for a new one");
    }
    return principals.get(i);
  }

  /** The index of the entry whose hash is {@code token}'s, or -1; always compares every entry. */
  private int indexOf(String token) {
    if (token == null || token.isEmpty() || token.length() > MAX_TOKEN_CHARS) {
      return -1;
    }
    byte[] presented = sha256(token);
    int match = -1;
    for (int i = 0; i < hashes.size(); i++) {
      if (MessageDigest.isEqual(hashes.get(i), presented) && match < 0) {
        match = i;
      }
    }
    return match;
  }

  public List<PrincipalEntry> entries() {
    return entries;
  }

  /** A new bearer token: {@code lake_} and 256 random bits, base64url. */
  public static String newToken() {
    byte[] bytes = new byte[32];
    new java.security.SecureRandom().nextBytes(bytes);
    return "lake_" + java.util.Base64.getUrlEncoder().withoutPadding().encodeToString(bytes);
  }

  /** Lower-case hex SHA-256 of the UTF-8 token: the form stored in principals files. */
  public static String sha256Hex(String token) {
    return HexFormat.of().formatHex(sha256(requireNonNull(token, "token is null")));
  }

  private static byte[] sha256(String token) {
    try {
      return MessageDigest.getInstance("SHA-256").digest(token.getBytes(StandardCharsets.UTF_8));
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("SHA-256 is missing from this JVM", e);
    }
  }

  /** Loads and validates a principals file. */
  public static Principals load(Path file) {
    return load(file, Clock.systemUTC());
  }

  /** Loads and validates a principals file whose expiry is judged by {@code clock}. */
  public static Principals load(Path file, Clock clock) {
    requireNonNull(file, "file is null");
    byte[] json;
    try {
      json = Files.readAllBytes(file);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read principals file " + file, e);
    }
    return parse("principals file " + file, json, clock);
  }

  /**
   * Parses and validates principals JSON from the source {@code name} (e.g. {@code principals file
   * /x}, which starts every error message, with the line of a bad value where one is found).
   */
  public static Principals parse(String name, byte[] json, Clock clock) {
    requireNonNull(name, "name is null");
    requireNonNull(json, "json is null");
    JsonNode root;
    try {
      root = Json.mapper().readTree(json);
    } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
      // where, not what: the text near the error is never echoed
      var at = e.getLocation();
      throw new IllegalArgumentException(
          name
              + " is not valid JSON"
              + (at == null
                  ? ""
                  : " (line " + at.getLineNr() + ", column " + at.getColumnNr() + ")"));
    } catch (IOException e) {
      throw new IllegalArgumentException(name + " is not valid JSON");
    }
    JsonNode list = root == null ? null : root.get("principals");
    if (list == null || !list.isArray()) {
      throw new IllegalArgumentException(name + " must hold {\"principals\":[...]}");
    }
    String text = new String(json, StandardCharsets.UTF_8);
    List<PrincipalEntry> entries = new ArrayList<>();
    for (JsonNode n : list) {
      List<String> grants = new ArrayList<>();
      for (JsonNode g : n.path("grants")) {
        try {
          grants.add(Grant.parse(g.asText()).toString());
        } catch (LakeException e) {
          throw new IllegalArgumentException(
              name + lineOf(text, g.asText()) + ": " + e.getMessage(), e);
        }
      }
      entries.add(
          new PrincipalEntry(
              n.path("tokenSha256").asText(),
              n.path("tenant").asText(),
              n.path("id").asText(),
              grants,
              expires(name, text, n)));
    }
    return new Principals(entries, clock);
  }

  /** The entry's {@code expires} (ISO-8601 instant), empty when absent. */
  private static Optional<Instant> expires(String name, String text, JsonNode entry) {
    JsonNode n = entry.get("expires");
    if (n == null || n.isNull()) {
      return Optional.empty();
    }
    try {
      return Optional.of(Instant.parse(n.asText()));
    } catch (DateTimeParseException e) {
      throw new IllegalArgumentException(
          name
              + lineOf(text, n.asText())
              + ": expires must be an ISO-8601 instant such as 2027-01-31T00:00:00Z, not '"
              + n.asText()
              + "'",
          e);
    }
  }

  /** {@code " line N"} of the first line of {@code json} holding {@code "text"}, or empty. */
  private static String lineOf(String json, String text) {
    String quoted = quote(text);
    List<String> lines = json.lines().toList();
    for (int i = 0; i < lines.size(); i++) {
      if (lines.get(i).contains(quoted)) {
        return " line " + (i + 1);
      }
    }
    return "";
  }

  private static String quote(String text) {
    try {
      return Json.mapper().writeValueAsString(text);
    } catch (IOException e) {
      return text;
    }
  }

  /** One entry as the principals file holds it (one line of JSON, for {@code principals hash}). */
  public static ObjectNode node(PrincipalEntry e) {
    ObjectNode n = Json.mapper().createObjectNode();
    n.put("tokenSha256", e.tokenSha256()).put("tenant", e.tenant()).put("id", e.id());
    ArrayNode grants = n.putArray("grants");
    e.grants().forEach(grants::add);
    e.expires().ifPresent(x -> n.put("expires", x.toString()));
    return n;
  }

  /** Writes {@code entries} to {@code file} atomically with owner-only permissions. */
  public static void write(Path file, List<PrincipalEntry> entries) {
    ObjectNode root = Json.mapper().createObjectNode();
    ArrayNode array = root.putArray("principals");
    entries.forEach(e -> array.add(node(e)));
    try {
      LocalFiles.writeSecret(file, tmp -> Json.pretty().writeValue(tmp.toFile(), root));
    } catch (IOException e) {
      throw new UncheckedIOException("cannot write principals file " + file, e);
    }
  }
}
