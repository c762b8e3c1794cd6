package dev.lake.core.ticket;

import static java.util.Objects.requireNonNull;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import dev.lake.core.ErrorCode;
import dev.lake.core.KeyService;
import dev.lake.core.LakeException;
import dev.lake.core.SealingKey;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.SecureRandom;
import java.util.Arrays;
import java.util.Optional;
import javax.crypto.AEADBadTagException;
import javax.crypto.Cipher;
import javax.crypto.spec.GCMParameterSpec;
import javax.crypto.spec.SecretKeySpec;

/**
 * The one sealed-envelope format of lake: framing, key lookup, associated data and AES-256-GCM (JDK
 * AEAD, random 96-bit nonce, one cipher object per thread). Statement tickets, prepared handles,
 * job capabilities, result-part tickets and job envelopes are all sealed here; what is inside
 * (claims, envelope JSON) belongs to the caller. See {@code docs/tickets.md}.
 *
 * <pre>
 * "LK" | envelope version (1 byte) | kind (1 byte) | key id length (1 byte) | key id (ASCII)
 *      | nonce (12 bytes) | AES-GCM(ciphertext) with 16-byte tag
 * </pre>
 *
 * The associated data is the plaintext header followed by the caller's context bytes (for a job
 * envelope: job id, tenant and principal), so an envelope copied elsewhere fails to open.
 */
public final class SealedEnvelope {
  /**
   * The only envelope version this build reads and writes. Version 2: job envelopes share this
   * framing (kind {@link TicketKind#JOB_ENVELOPE}) instead of their own "LJ" format.
   */
  public static final int VERSION = 2;

  private static final byte MAGIC_0 = 'L';
  private static final byte MAGIC_1 = 'K';
  private static final int FIXED_HEADER = 5;
  private static final int NONCE_BYTES = 12;
  private static final int TAG_BITS = 128;
  private static final int TAG_BYTES = TAG_BITS / 8;

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

  private final KeyService keys;
  private final SecureRandom random = new SecureRandom();

  /**
   * Key specs by key id, so the key bytes are not copied on every call; bounded like the key rings
   * that feed it.
   */
  private final Cache<String, SecretKeySpec> specs = Caffeine.newBuilder().maximumSize(256).build();

  public SealedEnvelope(KeyService keys) {
    this.keys = requireNonNull(keys, "keys is null");
  }

  /** Whether {@code bytes} start like a sealed envelope (cheap framing test, no crypto). */
  public static boolean looksSealed(byte[] bytes) {
    return bytes != null && bytes.length >= 2 && bytes[0] == MAGIC_0 && bytes[1] == MAGIC_1;
  }

  /** Seals {@code plaintext} as {@code kind} with the current key; {@code context} is bound. */
  public byte[] seal(TicketKind kind, byte[] context, byte[] plaintext) {
    requireNonNull(kind, "kind is null");
    requireNonNull(context, "context is null");
    requireNonNull(plaintext, "plaintext is null");
    SealingKey key = keys.current();
    byte[] keyId = key.id().getBytes(StandardCharsets.US_ASCII);
    byte[] nonce = new byte[NONCE_BYTES];
    random.nextBytes(nonce);
    ByteBuffer header = ByteBuffer.allocate(FIXED_HEADER + keyId.length + NONCE_BYTES);
    header.put(MAGIC_0).put(MAGIC_1).put((byte) VERSION).put((byte) kind.wire());
    header.put((byte) keyId.length).put(keyId).put(nonce);
    byte[] head = header.array();
    byte[] sealed = crypt(Cipher.ENCRYPT_MODE, key, nonce, aad(head, context), plaintext);
    return ByteBuffer.allocate(head.length + sealed.length).put(head).put(sealed).array();
  }

  /**
   * Opens {@code sealed}, checking framing, version, kind, key and integrity, in that order; throws
   * {@link Unopenable} naming the first check that failed. Returns the plaintext.
   */
  public byte[] open(byte[] sealed, TicketKind expected, byte[] context) {
    requireNonNull(sealed, "sealed is null");
    requireNonNull(expected, "expected is null");
    requireNonNull(context, "context is null");
    if (sealed.length < FIXED_HEADER + 1 + NONCE_BYTES + TAG_BYTES) {
      throw new Unopenable(Failure.BAD_LENGTH, 0);
    }
    if (!looksSealed(sealed)) {
      throw new Unopenable(Failure.NOT_AN_ENVELOPE, 0);
    }
    int version = sealed[2] & 0xff;
    if (version != VERSION) {
      throw new Unopenable(Failure.VERSION, version);
    }
    if (TicketKind.fromWire(sealed[3] & 0xff) != expected) {
      throw new Unopenable(Failure.KIND, 0);
    }
    int keyIdLength = sealed[4] & 0xff;
    int headLength = FIXED_HEADER + keyIdLength + NONCE_BYTES;
    if (keyIdLength == 0 || sealed.length < headLength + TAG_BYTES) {
      throw new Unopenable(Failure.BAD_HEADER, 0);
    }
    String keyId = new String(sealed, FIXED_HEADER, keyIdLength, StandardCharsets.US_ASCII);
    Optional<SealingKey> key;
    try {
      key = keys.find(keyId);
    } catch (IllegalArgumentException e) {
      key = Optional.empty();
    }
    if (key.isEmpty()) {
      throw new Unopenable(Failure.UNKNOWN_KEY, 0);
    }
    byte[] head = Arrays.copyOfRange(sealed, 0, headLength);
    byte[] nonce = Arrays.copyOfRange(sealed, FIXED_HEADER + keyIdLength, headLength);
    byte[] body = Arrays.copyOfRange(sealed, headLength, sealed.length);
    return crypt(Cipher.DECRYPT_MODE, key.get(), nonce, aad(head, context), body);
  }

  private static byte[] aad(byte[] head, byte[] context) {
    if (context.length == 0) {
      return head;
    }
    return ByteBuffer.allocate(head.length + context.length).put(head).put(context).array();
  }

  private byte[] crypt(int mode, SealingKey key, byte[] nonce, byte[] aad, byte[] input) {
    try {
      Cipher cipher = CIPHERS.get();
      SecretKeySpec spec = specs.get(key.id(), id -> new SecretKeySpec(key.key(), "AES"));
      cipher.init(mode, spec, new GCMParameterSpec(TAG_BITS, nonce));
      cipher.updateAAD(aad);
      return cipher.doFinal(input);
    } catch (AEADBadTagException e) {
      throw new Unopenable(Failure.INTEGRITY, 0);
    } catch (GeneralSecurityException e) {
      throw new LakeException(ErrorCode.INTERNAL, "Envelope cipher failure", e);
    }
  }

  /** The first check an envelope failed; callers word the message for their audience. */
  public enum Failure {
    BAD_LENGTH,
    NOT_AN_ENVELOPE,
    VERSION,
    KIND,
    BAD_HEADER,
    UNKNOWN_KEY,
    INTEGRITY
  }

  /** An envelope that does not open; {@link #version()} is set for {@link Failure#VERSION}. */
  public static final class Unopenable extends RuntimeException {
    private static final long serialVersionUID = 1L;
    private final Failure failure;
    private final int version;

    Unopenable(Failure failure, int version) {
      super(failure.name(), null, false, false);
      this.failure = failure;
      this.version = version;
    }

    public Failure failure() {
      return failure;
    }

    public int version() {
      return version;
    }
  }
}
