package dev.lake.core.contract;

import static org.assertj.core.api.Assertions.assertThat;

import dev.lake.core.ObjectStore;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** The behaviour every {@link ObjectStore} implementation must show; subclass per adapter. */
public abstract class ObjectStoreContract {
  /** A fresh, empty store (a new prefix or directory per call). */
  protected abstract ObjectStore store();

  /** Size of the "large" upload; adapters with a part buffer pick one spanning several parts. */
  protected int largeObjectBytes() {
    return 3 << 20;
  }

  @Test
  void upload_isInvisibleUntilComplete_thenReadable() throws IOException {
    // GIVEN an open upload with bytes written
    ObjectStore store = store();
    try (ObjectStore.Upload upload = store.create("a/b/obj.bin")) {
      upload.stream().write(new byte[] {1, 2, 3});
      // THEN nothing is visible yet
      assertThat(store.find("a/b/obj.bin")).isEmpty();
      // WHEN it completes
      upload.complete();
    }
    // THEN the object reads back exactly
    assertThat(read(store, "a/b/obj.bin")).containsExactly(1, 2, 3);
    assertThat(store.size("a/b/obj.bin")).contains(3L);
  }

  @Test
  void upload_closedWithoutComplete_leavesNothing() throws IOException {
    // GIVEN a large upload that is abandoned half-way
    ObjectStore store = store();
    try (ObjectStore.Upload upload = store.create("x/abandoned.bin")) {
      upload.stream().write(new byte[largeObjectBytes()]);
    }
    // THEN no object exists
    assertThat(store.find("x/abandoned.bin")).isEmpty();
    assertThat(store.list("x/")).isEmpty();
  }

  @Test
  void upload_largerThanAnyBuffer_roundTrips() throws IOException {
    // GIVEN random bytes spanning several upload parts
    byte[] bytes = new byte[largeObjectBytes() + 12345];
    new Random(7).nextBytes(bytes);
    ObjectStore store = store();
    // WHEN uploaded in odd-sized writes
    try (ObjectStore.Upload upload = store.create("big.bin")) {
      OutputStream out = upload.stream();
      for (int off = 0; off < bytes.length; off += 100_003) {
        out.write(bytes, off, Math.min(100_003, bytes.length - off));
      }
      upload.complete();
    }
    // THEN it reads back identically, whole and by range
    assertThat(Arrays.equals(read(store, "big.bin"), bytes)).isTrue();
    try (InputStream in = store.getRange("big.bin", 1_000_000, 10)) {
      assertThat(in.readAllBytes())
          .containsExactly(Arrays.copyOfRange(bytes, 1_000_000, 1_000_010));
    }
  }

  @Test
  void put_withoutOverwrite_failsWhenPresent() throws IOException {
    // GIVEN an object written conditionally
    ObjectStore store = store();
    assertThat(store.put("m.json", new byte[] {1}, false)).isTrue();
    // WHEN a second conditional put targets the same key
    boolean second = store.put("m.json", new byte[] {2}, false);
    // THEN it loses and the first bytes stay
    assertThat(second).isFalse();
    assertThat(read(store, "m.json")).containsExactly(1);
  }

  @Test
  void put_withOverwrite_replaces() throws IOException {
    ObjectStore store = store();
    store.put("m.json", new byte[] {1}, false);
    assertThat(store.put("m.json", new byte[] {2, 2}, true)).isTrue();
    assertThat(read(store, "m.json")).containsExactly(2, 2);
  }

  @Test
  void missingObject_isEmpty() {
    ObjectStore store = store();
    assertThat(store.find("nope/none.bin")).isEmpty();
    assertThat(store.size("nope/none.bin")).isEmpty();
  }

  @Test
  void list_returnsSortedKeysUnderPrefix_acrossPages() {
    // GIVEN more keys than one list page of the test adapters, plus one outside the prefix
    ObjectStore store = store();
    for (String k : List.of("p/e", "p/a", "p/c/d", "p/b", "p/f", "q/a", "p/g")) {
      store.put(k, new byte[] {0}, true);
    }
    // THEN list returns exactly the prefix's keys in order
    assertThat(store.list("p/")).containsExactly("p/a", "p/b", "p/c/d", "p/e", "p/f", "p/g");
  }

  @Test
  void delete_removes_andIsIdempotent() {
    ObjectStore store = store();
    store.put("d.bin", new byte[] {1}, true);
    store.delete("d.bin");
    store.delete("d.bin");
    assertThat(store.find("d.bin")).isEmpty();
  }

  private static byte[] read(ObjectStore store, String key) throws IOException {
    try (InputStream in = store.find(key).orElseThrow()) {
      return in.readAllBytes();
    }
  }
}
