package dev.lake.core.contract;

import static org.assertj.core.api.Assertions.assertThat;

import dev.lake.core.KeyService;
import dev.lake.core.SealingKey;
import org.junit.jupiter.api.Test;

/**
 * The behaviour every {@link KeyService} must show: replicas of one deployment share keys, and
 * rotation never breaks what older keys sealed. Subclass per adapter.
 */
public abstract class KeyServiceContract {
  /** A new replica's view of the deployment's key ring (the same shared ring every call). */
  protected abstract KeyService replica();

  /** Rotates the shared ring; returns the replica view to use afterwards. */
  protected abstract KeyService rotate(KeyService replica);

  @Test
  void current_isAnAes256Key_foundByItsId() {
    KeyService keys = replica();
    SealingKey current = keys.current();
    assertThat(current.key()).hasSize(32);
    assertThat(keys.find(current.id()).orElseThrow().key()).isEqualTo(current.key());
  }

  @Test
  void find_unknownOrMalformedId_isEmpty() {
    KeyService keys = replica();
    assertThat(keys.find("kd-AAAAAAAAAAAAAAAA")).isEmpty();
    assertThat(keys.find("k-unknown")).isEmpty();
    assertThat(keys.find("../../etc/passwd")).isEmpty();
  }

  @Test
  void anotherReplica_findsTheKeyOneReplicaSealsWith() {
    // GIVEN two replicas of one deployment
    SealingKey sealing = replica().current();
    // WHEN the other looks the key up by id
    // THEN it holds the same bytes
    assertThat(replica().find(sealing.id()).orElseThrow().key()).isEqualTo(sealing.key());
  }

  @Test
  void rotation_sealsWithANewKey_andOldKeysStillOpen() {
    // GIVEN a key in use
    KeyService keys = replica();
    SealingKey old = keys.current();
    // WHEN the ring rotates
    KeyService after = rotate(keys);
    // THEN a new key seals and the old one still opens, on this and on a fresh replica
    assertThat(after.current().id()).isNotEqualTo(old.id());
    assertThat(after.find(old.id()).orElseThrow().key()).isEqualTo(old.key());
    assertThat(replica().find(old.id()).orElseThrow().key()).isEqualTo(old.key());
  }
}
