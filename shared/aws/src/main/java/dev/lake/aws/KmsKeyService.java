package dev.lake.aws;

import static java.util.Objects.requireNonNull;

import com.fasterxml.jackson.databind.JsonNode;
import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import dev.lake.core.ErrorCode;
import dev.lake.core.Json;
import dev.lake.core.KeyService;
import dev.lake.core.LakeException;
import dev.lake.core.ObjectStore;
import dev.lake.core.SealingKey;
import java.io.IOException;
import java.io.InputStream;
import java.security.SecureRandom;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Base64;
import java.util.Comparator;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.regex.Pattern;
import software.amazon.awssdk.core.SdkBytes;
import software.amazon.awssdk.core.exception.SdkException;
import software.amazon.awssdk.services.kms.KmsClient;
import software.amazon.awssdk.services.kms.model.DataKeySpec;
import software.amazon.awssdk.services.kms.model.GenerateDataKeyResponse;

/**
 * A {@link KeyService} whose keys are KMS data keys shared by every replica and worker through a
 * small object per key ({@code <prefix>/<key id>.json} = id, creation time and the KMS-wrapped key;
 * never the plaintext). Any replica unseals a ticket another replica sealed: it reads the object
 * and calls KMS Decrypt once, with the encryption context {purpose, key id} so a wrapped key cannot
 * be replayed under another id, then caches the plaintext in memory.
 *
 * <p>No request calls KMS in steady state: a background task refreshes the ring every {@code
 * refreshEvery} (picking up keys other replicas generated) and rotates every {@code rotateEvery}.
 * Only a key id seen before the next refresh costs one Decrypt on the request path. Keys older than
 * {@code keyLifetime} are refused; the in-memory ring keeps at most {@code maxKeys}.
 */
public final class KmsKeyService implements KeyService, AutoCloseable {
  private static final Pattern ID = Pattern.compile("kd-[A-Za-z0-9_-]{16}");

  private final KmsClient kms;
  private final String kmsKeyId;
  private final ObjectStore ring;
  private final KmsKeyConfig config;
  private final Clock clock;
  private final Map<String, Entry> keys = new ConcurrentHashMap<>();
  private final Cache<String, Boolean> misses =
      Caffeine.newBuilder().maximumSize(1024).expireAfterWrite(Duration.ofSeconds(30)).build();
  private final SecureRandom random = new SecureRandom();
  private final ScheduledExecutorService scheduler;

  private record Entry(SealingKey key, Instant createdAt) {}

  /**
   * @param ring where wrapped keys live (e.g. an {@link S3ObjectStore} on the result bucket under
   *     {@code ticket-keys}); every replica of a deployment must use the same
   * @param background whether to refresh and rotate on a daemon thread (tests drive it by hand)
   */
  public KmsKeyService(
      KmsClient kms,
      String kmsKeyId,
      ObjectStore ring,
      KmsKeyConfig config,
      Clock clock,
      boolean background) {
    this.kms = requireNonNull(kms, "kms is null");
    this.kmsKeyId = requireNonNull(kmsKeyId, "kmsKeyId is null");
    this.ring = requireNonNull(ring, "ring is null");
    this.config = requireNonNull(config, "config is null");
    this.clock = requireNonNull(clock, "clock is null");
    refresh();
    if (background) {
      scheduler =
          Executors.newSingleThreadScheduledExecutor(
              r -> {
                Thread t = new Thread(r, "lake-kms-key-ring");
                t.setDaemon(true);
                return t;
              });
      long period = config.refreshEvery().toMillis();
      scheduler.scheduleWithFixedDelay(this::refreshQuietly, period, period, TimeUnit.MILLISECONDS);
    } else {
      scheduler = null;
    }
  }

  /**
   * The newest live key. When every key outlived {@code keyLifetime} (KMS or the ring's store
   * failed for longer than that, so no refresh could rotate), sealing is EXTERNAL_UNAVAILABLE like
   * any other failure of the key service, not an internal error.
   */
  @Override
  public SealingKey current() {
    return newest()
        .map(Entry::key)
        .orElseThrow(
            () ->
                new LakeException(
                    ErrorCode.EXTERNAL_UNAVAILABLE,
                    "The key service has no live ticket key (no rotation succeeded within the key"
                        + " lifetime); retry later"));
  }

  @Override
  public Optional<SealingKey> find(String keyId) {
    Entry e = keys.get(keyId);
    if (e != null) {
      return live(e) ? Optional.of(e.key()) : Optional.empty();
    }
    if (keyId == null || !ID.matcher(keyId).matches() || misses.getIfPresent(keyId) != null) {
      return Optional.empty();
    }
    Optional<Entry> loaded = load(keyId);
    if (loaded.isEmpty()) {
      misses.put(keyId, Boolean.TRUE);
      return Optional.empty();
    }
    remember(loaded.get());
    return live(loaded.get()) ? Optional.of(loaded.get().key()) : Optional.empty();
  }

  /** Loads keys others created and rotates when due; runs on the background thread. */
  public synchronized void refresh() {
    for (String object : ring.list("")) {
      String name = object.substring(object.lastIndexOf('/') + 1);
      if (!name.endsWith(".json")) {
        continue;
      }
      String id = name.substring(0, name.length() - ".json".length());
      if (ID.matcher(id).matches() && !keys.containsKey(id)) {
        load(id).filter(this::live).ifPresent(this::remember);
      }
    }
    Optional<Entry> newest = newest();
    if (newest.isEmpty()
        || !newest.get().createdAt().plus(config.rotateEvery()).isAfter(clock.instant())) {
      rotate();
    }
  }

  /** Generates, publishes and adopts a new data key now. */
  public synchronized SealingKey rotate() {
    byte[] idBytes = new byte[12];
    random.nextBytes(idBytes);
    String id = "kd-" + Base64.getUrlEncoder().withoutPadding().encodeToString(idBytes);
    GenerateDataKeyResponse generated;
    try {
      generated =
          kms.generateDataKey(
              b -> b.keyId(kmsKeyId).keySpec(DataKeySpec.AES_256).encryptionContext(context(id)));
    } catch (SdkException e) {
      throw new LakeException(
          ErrorCode.EXTERNAL_UNAVAILABLE, "The key service is unavailable; retry later", e);
    }
    Instant now = clock.instant();
    var node =
        Json.mapper()
            .createObjectNode()
            .put("id", id)
            .put("createdAt", now.toEpochMilli())
            .put(
                "wrapped",
                Base64.getEncoder().encodeToString(generated.ciphertextBlob().asByteArray()));
    try {
      ring.put(id + ".json", Json.mapper().writeValueAsBytes(node), false);
    } catch (IOException e) {
      throw new LakeException(ErrorCode.INTERNAL, "Cannot encode a wrapped key", e);
    }
    Entry entry = new Entry(new SealingKey(id, generated.plaintext().asByteArray()), now);
    remember(entry);
    return entry.key();
  }

  private Optional<Entry> load(String id) {
    Optional<InputStream> in = ring.find(id + ".json");
    if (in.isEmpty()) {
      return Optional.empty();
    }
    try (InputStream stream = in.get()) {
      JsonNode node = Json.mapper().readTree(stream.readNBytes(64 * 1024));
      if (!id.equals(node.path("id").asText())) {
        return Optional.empty();
      }
      byte[] wrapped = Base64.getDecoder().decode(node.path("wrapped").asText());
      byte[] plain =
          kms.decrypt(
                  b ->
                      b.keyId(kmsKeyId)
                          .ciphertextBlob(SdkBytes.fromByteArray(wrapped))
                          .encryptionContext(context(id)))
              .plaintext()
              .asByteArray();
      return Optional.of(
          new Entry(
              new SealingKey(id, plain), Instant.ofEpochMilli(node.path("createdAt").asLong())));
    } catch (SdkException e) {
      // a blob that does not decrypt under its own context is not a key of ours
      return Optional.empty();
    } catch (IOException | RuntimeException e) {
      return Optional.empty();
    }
  }

  private void remember(Entry e) {
    keys.put(e.key().id(), e);
    while (keys.size() > config.maxKeys()) {
      keys.values().stream()
          .min(Comparator.comparing(Entry::createdAt))
          .ifPresent(oldest -> keys.remove(oldest.key().id()));
    }
  }

  private boolean live(Entry e) {
    return e.createdAt().plus(config.keyLifetime()).isAfter(clock.instant());
  }

  private Optional<Entry> newest() {
    return keys.values().stream().filter(this::live).max(Comparator.comparing(Entry::createdAt));
  }

  private static Map<String, String> context(String id) {
    return Map.of("lake:purpose", "ticket-key", "lake:key-id", id);
  }

  private void refreshQuietly() {
    try {
      refresh();
    } catch (RuntimeException e) {
      // the ring keeps serving the keys it holds; the next refresh retries
    }
  }

  @Override
  public void close() {
    if (scheduler != null) {
      scheduler.shutdownNow();
    }
  }
}
