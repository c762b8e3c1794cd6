package dev.lake.core.local;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.lake.core.ObjectStore;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
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
}
