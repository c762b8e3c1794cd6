package dev.lake.core.job;

import static java.util.Objects.requireNonNull;

import com.fasterxml.jackson.databind.JsonNode;
import dev.lake.core.ErrorCode;
import dev.lake.core.Json;
import dev.lake.core.KeyService;
import dev.lake.core.LakeException;
import dev.lake.core.SealingKey;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.SecureRandom;
import java.util.Arrays;
import java.util.Optional;
import javax.crypto.Cipher;
import javax.crypto.spec.GCMParameterSpec;
import javax.crypto.spec.SecretKeySpec;

/**
 * AES-256-GCM sealing of {@link JobEnvelope}s with the deployment's {@link KeyService}. The job id,
 * tenant and principal are associated data, so an envelope copied into another job record fails to
 * open.
 *
 * <pre>
 * "LJ" | version 1 | key id length | key id (ASCII) | nonce (12) | ciphertext + 16-byte tag
 * </pre>
 *
 * <p>Opening needs the sealing key to still be in the key ring: the ring must outlive pending jobs
 * (see docs/async.md); a job whose key rotated out fails with {@code INTERNAL}.
 */
public final class EnvelopeSealer {
  private static final byte[] MAGIC = {'L', 'J'};
  private static final int VERSION = 1;
  private static final int NONCE_BYTES = 12;

  private final KeyService keys;
  private final SecureRandom random = new SecureRandom();

  public EnvelopeSealer(KeyService keys) {
    this.keys = requireNonNull(keys, "keys is null");
  }

  public byte[] seal(String jobId, JobEnvelope envelope) {
    byte[] plaintext;
    try {
      plaintext = Json.mapper().writeValueAsBytes(envelope.toJson());
    } catch (IOException e) {
      throw new UncheckedIOException("cannot encode job envelope", e);
    }
    SealingKey key = keys.current();
    byte[] keyId = key.id().getBytes(StandardCharsets.US_ASCII);
    byte[] nonce = new byte[NONCE_BYTES];
    random.nextBytes(nonce);
    ByteBuffer header = ByteBuffer.allocate(4 + keyId.length + NONCE_BYTES);
    header.put(MAGIC).put((byte) VERSION).put((byte) keyId.length).put(keyId).put(nonce);
    byte[] head = header.array();
    byte[] sealed =
        crypt(
            Cipher.ENCRYPT_MODE,
            key,
            nonce,
            aad(head, jobId, envelope.principal().tenant(), envelope.principal().id()),
            plaintext);
    return ByteBuffer.allocate(head.length + sealed.length).put(head).put(sealed).array();
  }

  /** Opens the envelope of {@code job}, failing closed. */
  public JobEnvelope open(Job job) {
    byte[] bytes = job.envelope();
    if (bytes.length < 4 + 1 + NONCE_BYTES + 16
        || bytes[0] != MAGIC[0]
        || bytes[1] != MAGIC[1]
        || bytes[2] != VERSION) {
      throw broken("unknown envelope format");
    }
    int keyIdLength = bytes[3] & 0xff;
    int headLength = 4 + keyIdLength + NONCE_BYTES;
    if (keyIdLength == 0 || bytes.length < headLength + 16) {
      throw broken("bad envelope header");
    }
    String keyId = new String(bytes, 4, keyIdLength, StandardCharsets.US_ASCII);
    Optional<SealingKey> key;
    try {
      key = keys.find(keyId);
    } catch (IllegalArgumentException e) {
      key = Optional.empty();
    }
    if (key.isEmpty()) {
      throw broken("its key rotated out of the key ring");
    }
    byte[] head = Arrays.copyOfRange(bytes, 0, headLength);
    byte[] nonce = Arrays.copyOfRange(bytes, 4 + keyIdLength, headLength);
    byte[] plaintext =
        crypt(
            Cipher.DECRYPT_MODE,
            key.get(),
            nonce,
            aad(head, job.id(), job.tenant(), job.principal()),
            Arrays.copyOfRange(bytes, headLength, bytes.length));
    try {
      JsonNode node = Json.mapper().readTree(plaintext);
      return JobEnvelope.fromJson(node);
    } catch (IOException | RuntimeException e) {
      throw broken("unreadable envelope");
    }
  }

  private static byte[] aad(byte[] head, String jobId, String tenant, String principal) {
    byte[] ids = (jobId + "\0" + tenant + "\0" + principal + "\0").getBytes(StandardCharsets.UTF_8);
    return ByteBuffer.allocate(head.length + ids.length).put(head).put(ids).array();
  }

  private static byte[] crypt(int mode, SealingKey key, byte[] nonce, byte[] aad, byte[] input) {
    try {
      Cipher cipher = Cipher.getInstance("AES/GCM/NoPadding");
      cipher.init(mode, new SecretKeySpec(key.key(), "AES"), new GCMParameterSpec(128, nonce));
      cipher.updateAAD(aad);
      return cipher.doFinal(input);
    } catch (javax.crypto.AEADBadTagException e) {
      throw broken("integrity check failed");
    } catch (GeneralSecurityException e) {
      throw new LakeException(ErrorCode.INTERNAL, "Job envelope cipher failure", e);
    }
  }

  private static LakeException broken(String why) {
    return new LakeException(ErrorCode.INTERNAL, "Job envelope cannot be opened: " + why);
  }
}
