package dev.lake.frontdoor;

import static java.util.Objects.requireNonNull;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.lake.core.Grant;
import dev.lake.core.Json;
import dev.lake.core.LakeException;
import dev.lake.core.Principal;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Optional;

/**
 * The deployment's principals: bearer-token hashes mapped to principals, loaded once from a JSON
 * file {@code
 * {"principals":[{"tokenSha256":"<hex>","tenant":"t","id":"alice","grants":["lake.tpch"]}]}}. Raw
 * tokens are never stored; a presented token is hashed and compared in constant time against every
 * entry.
 */
public final class Principals {
  /** Tokens longer than this are rejected before hashing. */
  static final int MAX_TOKEN_CHARS = 4096;

  private final List<PrincipalEntry> entries;
  private final List<byte[]> hashes;
  // each entry's principal, built (grants parsed) once instead of on every call
  private final List<Principal> principals;

  public Principals(List<PrincipalEntry> entries) {
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

  /** The principal holding {@code token}, or empty. Compares against every entry. */
  public Optional<Principal> authenticate(String token) {
    if (token == null || token.isEmpty() || token.length() > MAX_TOKEN_CHARS) {
      return Optional.empty();
    }
    byte[] presented = sha256(token);
    Principal match = null;
    for (int i = 0; i < hashes.size(); i++) {
      if (MessageDigest.isEqual(hashes.get(i), presented) && match == null) {
        match = principals.get(i);
      }
    }
    return Optional.ofNullable(match);
  }

  public List<PrincipalEntry> entries() {
    return entries;
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
    requireNonNull(file, "file is null");
    JsonNode root;
    try {
      root = Json.mapper().readTree(file.toFile());
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read principals file " + file, e);
    }
    JsonNode list = root == null ? null : root.get("principals");
    if (list == null || !list.isArray()) {
      throw new IllegalArgumentException(
          "principals file " + file + " must hold {\"principals\":[...]}");
    }
    List<PrincipalEntry> entries = new ArrayList<>();
    for (JsonNode n : list) {
      List<String> grants = new ArrayList<>();
      for (JsonNode g : n.path("grants")) {
        try {
          grants.add(Grant.parse(g.asText()).toString());
        } catch (LakeException e) {
          throw new IllegalArgumentException(
              "principals file " + file + lineOf(file, g.asText()) + ": " + e.getMessage(), e);
        }
      }
      entries.add(
          new PrincipalEntry(
              n.path("tokenSha256").asText(),
              n.path("tenant").asText(),
              n.path("id").asText(),
              grants));
    }
    return new Principals(entries);
  }

  /** {@code " line N"} of the first line holding {@code "text"}, or empty if none does. */
  private static String lineOf(Path file, String text) {
    String quoted = quote(text);
    try {
      List<String> lines = Files.readAllLines(file, StandardCharsets.UTF_8);
      for (int i = 0; i < lines.size(); i++) {
        if (lines.get(i).contains(quoted)) {
          return " line " + (i + 1);
        }
      }
    } catch (IOException e) {
      // the file was readable a moment ago; the message simply names no line
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

  /** Writes {@code entries} to {@code file} atomically with owner-only permissions. */
  public static void write(Path file, List<PrincipalEntry> entries) {
    ObjectNode root = Json.mapper().createObjectNode();
    ArrayNode array = root.putArray("principals");
    for (PrincipalEntry e : entries) {
      ObjectNode n = array.addObject();
      n.put("tokenSha256", e.tokenSha256()).put("tenant", e.tenant()).put("id", e.id());
      ArrayNode grants = n.putArray("grants");
      e.grants().forEach(grants::add);
    }
    try {
      Path dir = file.toAbsolutePath().getParent();
      Files.createDirectories(dir);
      Path tmp = Files.createTempFile(dir, ".principals", ".tmp");
      try {
        Files.setPosixFilePermissions(tmp, PosixFilePermissions.fromString("rw-------"));
      } catch (UnsupportedOperationException ignored) {
        // non-POSIX file system: rely on the directory's permissions
      }
      Json.pretty().writeValue(tmp.toFile(), root);
      Files.move(tmp, file, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot write principals file " + file, e);
    }
  }
}
