package dev.lake.core.local;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class LocalKeyRingTest {
  @TempDir Path dir;

  @Test
  void loadOrCreate_createsOwnerOnlyFile_andReloadsTheSameKey() throws Exception {
    Path file = dir.resolve("keys.json");
    LocalKeyRing first = LocalKeyRing.loadOrCreate(file);
    LocalKeyRing second = LocalKeyRing.loadOrCreate(file);
    assertThat(second.current().id()).isEqualTo(first.current().id());
    assertThat(second.current().key()).isEqualTo(first.current().key());
    assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(file)))
        .isEqualTo("rw-------");
  }

  @Test
  void rotate_addsANewCurrentKey_andDropsTheOldestBeyondTheBound() {
    Path file = dir.resolve("keys.json");
    String original = LocalKeyRing.loadOrCreate(file).current().id();
    LocalKeyRing ring = LocalKeyRing.rotate(file, 3);
    assertThat(ring.current().id()).isNotEqualTo(original);
    assertThat(ring.find(original)).isPresent();
    LocalKeyRing.rotate(file, 3);
    ring = LocalKeyRing.rotate(file, 3);
    assertThat(ring.keyIds()).hasSize(3).doesNotContain(original);
    assertThat(LocalKeyRing.load(file).keyIds()).isEqualTo(ring.keyIds());
  }
}
