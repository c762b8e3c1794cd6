package dev.lake.core.local;

import static java.util.Objects.requireNonNull;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.lake.core.Json;
import dev.lake.core.KeyService;
import dev.lake.core.SealingKey;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Optional;

/**
 * A bounded key ring in a local file shared by the replicas of a local deployment. The newest key
 * seals; every key still in the ring unseals, so rotation never breaks live tickets as long as the
 * ring keeps more keys than rotations within the longest ticket lifetime.
 *
 * <p>File format: {@code {"keys":[{"id":"k-...","key":"<base64 32 bytes>"}, ...]}}, newest last,
 * owner-only permissions.
 */
public final class LocalKeyRing implements KeyService {
  /** Default and maximum number of keys kept. */
  public static final int DEFAULT_MAX_KEYS = 4;

  private final List<SealingKey> keys;

  private LocalKeyRing(List<SealingKey> keys) {
    if (keys.isEmpty()) {
      throw new IllegalArgumentException("key ring is empty");
    }
    this.keys = List.copyOf(keys);
  }

  /** A ring of one fresh random key, held only in memory. */
  public static LocalKeyRing ephemeral() {
    return new LocalKeyRing(List.of(newKey()));
  }

  /** A ring holding exactly {@code keys}, newest last. */
  public static LocalKeyRing of(List<SealingKey> keys) {
    return new LocalKeyRing(keys);
  }

  /** Loads the ring at {@code file}, creating it with one fresh key when absent. */
  public static LocalKeyRing loadOrCreate(Path file) {
    requireNonNull(file, "file is null");
    if (!Files.exists(file)) {
      write(file, List.of(newKey()));
    }
    return load(file);
  }

  /** Adds a new current key to the ring at {@code file}, dropping the oldest beyond maxKeys. */
  public static LocalKeyRing rotate(Path file, int maxKeys) {
    if (maxKeys < 2 || maxKeys > 64) {
      throw new IllegalArgumentException("maxKeys must be between 2 and 64: " + maxKeys);
    }
    List<SealingKey> keys = new ArrayList<>(load(file).keys);
    keys.add(newKey());
    while (keys.size() > maxKeys) {
      keys.remove(0);
    }
    write(file, keys);
    return new LocalKeyRing(keys);
  }

  public static LocalKeyRing load(Path file) {
    try {
      JsonNode root = Json.mapper().readTree(file.toFile());
      List<SealingKey> keys = new ArrayList<>();
      for (JsonNode k : root.path("keys")) {
        keys.add(
            new SealingKey(
                k.path("id").asText(), Base64.getDecoder().decode(k.path("key").asText())));
      }
      return new LocalKeyRing(keys);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read key ring " + file, e);
    }
  }

  @Override
  public SealingKey current() {
    return keys.get(keys.size() - 1);
  }

  @Override
  public Optional<SealingKey> find(String keyId) {
    return keys.stream().filter(k -> k.id().equals(keyId)).findFirst();
  }

  public List<String> keyIds() {
    return keys.stream().map(SealingKey::id).toList();
  }

  private static SealingKey newKey() {
    SecureRandom random = new SecureRandom();
    byte[] key = new byte[32];
    random.nextBytes(key);
    byte[] id = new byte[9];
    random.nextBytes(id);
    return new SealingKey("k-" + Base64.getUrlEncoder().withoutPadding().encodeToString(id), key);
  }

  private static void write(Path file, List<SealingKey> keys) {
    ObjectNode root = Json.mapper().createObjectNode();
    ArrayNode array = root.putArray("keys");
    for (SealingKey k : keys) {
      array.addObject().put("id", k.id()).put("key", Base64.getEncoder().encodeToString(k.key()));
    }
    try {
      LocalFiles.writeSecret(file, tmp -> Json.pretty().writeValue(tmp.toFile(), root));
    } catch (IOException e) {
      throw new UncheckedIOException("cannot write key ring " + file, e);
    }
  }
}
