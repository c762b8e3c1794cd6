package dev.lake.core.local;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.lake.core.ErrorCode;
import dev.lake.core.LakeException;
import dev.lake.core.ObjectStore;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import org.assertj.core.api.ThrowableAssert.ThrowingCallable;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class LocalObjectStoreTest {
  @TempDir Path dir;

  @Test
  void upload_isInvisible_untilCompleted_andAbortLeavesNothing() throws Exception {
    LocalObjectStore store = new LocalObjectStore(dir);
    try (ObjectStore.Upload upload = store.create("t/q/part-00000.arrow")) {
      upload.stream().write("hello".getBytes(StandardCharsets.UTF_8));
      assertThat(store.find("t/q/part-00000.arrow")).isEmpty();
      upload.complete();
    }
    try (InputStream in = store.find("t/q/part-00000.arrow").orElseThrow()) {
      assertThat(new String(in.readAllBytes(), StandardCharsets.UTF_8)).isEqualTo("hello");
    }
    try (ObjectStore.Upload upload = store.create("t/q/part-00001.arrow")) {
      upload.stream().write(1);
    }
    assertThat(store.list("t/")).containsExactly("t/q/part-00000.arrow");
  }

  @Test
  void getRange_returnsExactlyTheRange() throws Exception {
    LocalObjectStore store = new LocalObjectStore(dir);
    store.put("a/b", "0123456789".getBytes(StandardCharsets.UTF_8), false);
    try (InputStream in = store.getRange("a/b", 3, 4)) {
      assertThat(new String(in.readAllBytes(), StandardCharsets.UTF_8)).isEqualTo("3456");
    }
    assertThat(store.size("a/b")).contains(10L);
  }

  @Test
  void put_withoutOverwrite_refusesAnExistingKey() {
    LocalObjectStore store = new LocalObjectStore(dir);
    assertThat(store.put("m.json", new byte[] {1}, false)).isTrue();
    assertThat(store.put("m.json", new byte[] {2}, false)).isFalse();
    assertThat(store.put("m.json", new byte[] {2}, true)).isTrue();
  }

  @Test
  void keys_cannotEscapeTheRoot() {
    LocalObjectStore store = new LocalObjectStore(dir);
    assertThatThrownBy(() -> store.find("../x")).hasMessage("invalid object key: ../x");
    assertThatThrownBy(() -> store.find("/etc/passwd"))
        .hasMessage("invalid object key: /etc/passwd");
    assertThatThrownBy(() -> store.find(".uploads/x")).hasMessage("invalid object key: .uploads/x");
  }

  @Test
  void storageFailures_areLakeExceptions_externalUnavailable_likeS3s() throws Exception {
    // GIVEN a store where a key names a directory and another key's parent is a file
    LocalObjectStore store = new LocalObjectStore(dir);
    store.put("dir/x", new byte[] {1}, false);
    store.put("file", new byte[] {1}, false);
    // WHEN reading, ranging, writing, uploading or deleting fails in the file system
    // THEN each failure is the port's error, never a raw I/O exception
    assertExternal(() -> store.find("file/y"), "Object store read failed; retry later");
    assertExternal(() -> store.getRange("missing", 0, 1), "Object store read failed; retry later");
    assertExternal(() -> store.put("file/y", new byte[] {1}, true), "Object store write failed");
    assertExternal(
        () -> {
          try (ObjectStore.Upload upload = store.create("file/z")) {
            upload.stream().write(1);
            upload.complete();
          }
        },
        "Object store write failed");
    assertExternal(() -> store.delete("dir"), "Object store delete failed");
    // AND the store still works
    assertThat(store.list("")).containsExactly("dir/x", "file");
  }

  private static void assertExternal(ThrowingCallable call, String message) {
    assertThatThrownBy(call)
        .isInstanceOfSatisfying(
            LakeException.class,
            e -> assertThat(e.code()).isEqualTo(ErrorCode.EXTERNAL_UNAVAILABLE))
        .hasMessageStartingWith(message)
        .hasCauseInstanceOf(java.io.IOException.class);
  }
}
