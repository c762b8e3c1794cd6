package dev.lake.core.ticket;

import static java.util.Objects.requireNonNull;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.lake.core.ErrorCode;
import dev.lake.core.KeyService;
import dev.lake.core.LakeException;
import dev.lake.core.Principal;
import dev.lake.core.SealingKey;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.SecureRandom;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;
import javax.crypto.AEADBadTagException;
import javax.crypto.Cipher;
import javax.crypto.spec.GCMParameterSpec;
import javax.crypto.spec.SecretKeySpec;

/**
 * Seals claims into opaque tickets with AES-256-GCM (JDK AEAD, random 96-bit nonce, the plaintext
 * header as associated data) and opens them again, failing closed. See {@code docs/tickets.md} for
 * the wire format and its versioning rule.
 *
 * <pre>
 * "LK" | envelope version (1 byte) | kind (1 byte) | key id length (1 byte) | key id (ASCII)
 *      | nonce (12 bytes) | AES-GCM(ciphertext of claims JSON) with 16-byte tag
 * </pre>
 */
public final class TicketSealer {
  /** The only envelope version this build reads and writes. */
  public static final int ENVELOPE_VERSION = 1;

  /** Tickets larger than this are rejected before any crypto work. */
  public static final int MAX_TICKET_BYTES = 64 * 1024;

  private static final byte[] MAGIC = {'L', 'K'};
  private static final int NONCE_BYTES = 12;
  private static final int TAG_BITS = 128;
  private static final ObjectMapper JSON = new ObjectMapper();

  private final KeyService keys;
  private final TicketConfig config;
  private final Clock clock;
  private final SecureRandom random = new SecureRandom();

  public TicketSealer(KeyService keys, TicketConfig config, Clock clock) {
    this.keys = requireNonNull(keys, "keys is null");
    this.config = requireNonNull(config, "config is null");
    this.clock = requireNonNull(clock, "clock is null");
  }

  public TicketConfig config() {
    return config;
  }

  /** Seals {@code payload} for {@code principal}, valid for {@code ttl} from now. */
  public byte[] seal(TicketKind kind, Principal principal, Duration ttl, JsonNode payload) {
    requireNonNull(kind, "kind is null");
    requireNonNull(principal, "principal is null");
    requireNonNull(ttl, "ttl is null");
    requireNonNull(payload, "payload is null");
    Instant now = clock.instant();
    ObjectNode claims = JSON.createObjectNode();
    claims.put("tenant", principal.tenant());
    claims.put("principal", principal.id());
    claims.put("aud", config.audience());
    claims.put("iat", now.toEpochMilli());
    claims.put("exp", now.plus(ttl).toEpochMilli());
    claims.set("payload", payload);
    byte[] plaintext;
    try {
      plaintext = JSON.writeValueAsBytes(claims);
    } catch (IOException e) {
      throw new LakeException(ErrorCode.INTERNAL, "Cannot encode ticket claims", e);
    }
    SealingKey key = keys.current();
    byte[] keyId = key.id().getBytes(StandardCharsets.US_ASCII);
    byte[] nonce = new byte[NONCE_BYTES];
    random.nextBytes(nonce);
    ByteBuffer header = ByteBuffer.allocate(5 + keyId.length + NONCE_BYTES);
    header.put(MAGIC).put((byte) ENVELOPE_VERSION).put((byte) kind.wire()).put((byte) keyId.length);
    header.put(keyId).put(nonce);
    byte[] aad = header.array();
    byte[] sealed = crypt(Cipher.ENCRYPT_MODE, key, nonce, aad, plaintext);
    return ByteBuffer.allocate(aad.length + sealed.length).put(aad).put(sealed).array();
  }

  /**
   * Opens {@code ticket}, checking kind, key, integrity, audience, expiry and that the caller is
   * the principal it was sealed for. Returns the payload.
   */
  public JsonNode unseal(byte[] ticket, TicketKind expected, Principal caller) {
    requireNonNull(ticket, "ticket is null");
    requireNonNull(expected, "expected is null");
    requireNonNull(caller, "caller is null");
    if (ticket.length > MAX_TICKET_BYTES || ticket.length < 5 + 1 + NONCE_BYTES + 16) {
      throw invalid("Ticket is not a lake ticket (bad length)");
    }
    if (ticket[0] != MAGIC[0] || ticket[1] != MAGIC[1]) {
      throw invalid("Ticket is not a lake ticket");
    }
    int version = ticket[2] & 0xff;
    if (version != ENVELOPE_VERSION) {
      throw invalid(
          "Ticket envelope version "
              + version
              + " is not supported by this server (expects "
              + ENVELOPE_VERSION
              + "); request a new ticket");
    }
    TicketKind kind = TicketKind.fromWire(ticket[3] & 0xff);
    if (kind != expected) {
      throw invalid(
          "Ticket is not a " + expected.name().toLowerCase(java.util.Locale.ROOT) + " ticket");
    }
    int keyIdLength = ticket[4] & 0xff;
    int headerLength = 5 + keyIdLength + NONCE_BYTES;
    if (keyIdLength == 0 || ticket.length < headerLength + 16) {
      throw invalid("Ticket is not a lake ticket (bad header)");
    }
    String keyId = new String(ticket, 5, keyIdLength, StandardCharsets.US_ASCII);
    Optional<SealingKey> key;
    try {
      key = keys.find(keyId);
    } catch (IllegalArgumentException e) {
      key = Optional.empty();
    }
    if (key.isEmpty()) {
      throw invalid("Ticket was sealed with a key this server does not hold; request a new ticket");
    }
    byte[] aad = java.util.Arrays.copyOfRange(ticket, 0, headerLength);
    byte[] nonce = java.util.Arrays.copyOfRange(ticket, 5 + keyIdLength, headerLength);
    byte[] body = java.util.Arrays.copyOfRange(ticket, headerLength, ticket.length);
    byte[] plaintext = crypt(Cipher.DECRYPT_MODE, key.get(), nonce, aad, body);
    JsonNode claims;
    try {
      claims = JSON.readTree(plaintext);
    } catch (IOException e) {
      throw invalid("Ticket claims are unreadable");
    }
    Instant now = clock.instant();
    if (!config.audience().equals(claims.path("aud").asText())) {
      throw new LakeException(ErrorCode.TICKET_FOREIGN, "Ticket was issued for another deployment");
    }
    long exp = claims.path("exp").asLong(0);
    long iat = claims.path("iat").asLong(Long.MAX_VALUE);
    if (now.toEpochMilli() > exp + config.clockSkew().toMillis()) {
      throw new LakeException(
          ErrorCode.TICKET_EXPIRED, "Ticket expired; run the statement again for a new ticket");
    }
    if (iat > now.toEpochMilli() + config.clockSkew().toMillis()) {
      throw invalid("Ticket was issued in the future; check replica clocks");
    }
    if (!caller.tenant().equals(claims.path("tenant").asText())
        || !caller.id().equals(claims.path("principal").asText())) {
      throw new LakeException(ErrorCode.TICKET_FOREIGN, "Ticket belongs to another principal");
    }
    JsonNode payload = claims.get("payload");
    if (payload == null || !payload.isObject()) {
      throw invalid("Ticket has no payload");
    }
    return payload;
  }

  /** The expiry sealed into a ticket this sealer just produced for {@code ttl}. */
  public Instant expiryFor(Duration ttl) {
    return clock.instant().plus(ttl);
  }

  /** One cipher object per thread: {@code Cipher.getInstance} is a provider lookup per call. */
  private static final ThreadLocal<Cipher> CIPHERS =
      ThreadLocal.withInitial(
          () -> {
            try {
              return Cipher.getInstance("AES/GCM/NoPadding");
            } catch (GeneralSecurityException e) {
              throw new IllegalStateException("AES/GCM is not available in this JVM", e);
            }
          });

  /**
   * Key specs by key id, so the key bytes are not copied on every call; bounded like the key rings
   * that feed it.
   */
  private final com.github.benmanes.caffeine.cache.Cache<String, SecretKeySpec> specs =
      com.github.benmanes.caffeine.cache.Caffeine.newBuilder().maximumSize(256).build();

  private byte[] crypt(int mode, SealingKey key, byte[] nonce, byte[] aad, byte[] input) {
    try {
      Cipher cipher = CIPHERS.get();
      SecretKeySpec spec = specs.get(key.id(), id -> new SecretKeySpec(key.key(), "AES"));
      cipher.init(mode, spec, new GCMParameterSpec(TAG_BITS, nonce));
      cipher.updateAAD(aad);
      return cipher.doFinal(input);
    } catch (AEADBadTagException e) {
      throw invalid("Ticket failed its integrity check");
    } catch (GeneralSecurityException e) {
      throw new LakeException(ErrorCode.INTERNAL, "Ticket cipher failure", e);
    }
  }

  private static LakeException invalid(String message) {
    return new LakeException(ErrorCode.TICKET_INVALID, message);
  }
}
