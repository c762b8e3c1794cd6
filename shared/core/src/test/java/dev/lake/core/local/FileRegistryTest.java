package dev.lake.core.local;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.lake.core.ErrorCode;
import dev.lake.core.LakeException;
import dev.lake.core.Registry;
import dev.lake.core.TableRef;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.FileTime;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class FileRegistryTest {
  @TempDir Path dir;

  private static final TableRef T = TableRef.parse("lake.s.t");
  private static final TableRef U = TableRef.parse("lake.s.u");

  @Test
  void find_seesEveryWriteOfAnotherHandle_atTheNextRead() {
    // GIVEN a reader handle that has parsed the file once, and a writer handle on the same file
    Path file = dir.resolve("registry.json");
    FileRegistry reader = new FileRegistry(file);
    FileRegistry writer = new FileRegistry(file);
    writer.register(T, "test", "/data/t.lance", Map.of());
    assertThat(reader.find(T)).isPresent();

    // WHEN the writer registers and unregisters
    writer.register(U, "test", "/data/u.lance", Map.of());
    Registry.Entry u = reader.find(U).orElseThrow();
    writer.unregister(T);

    // THEN the reader sees each new version
    assertThat(u.location()).isEqualTo("/data/u.lance");
    assertThat(reader.find(T)).isEmpty();
    assertThat(reader.list()).extracting(Registry.Entry::ref).containsExactly(U);
  }

  @Test
  void find_parsesAgainOnlyWhenTheVersionChanges() throws Exception {
    // GIVEN a parsed registry file
    Path file = dir.resolve("registry.json");
    FileRegistry registry = new FileRegistry(file);
    registry.register(T, "test", "/data/t.lance", Map.of());
    assertThat(registry.find(T)).isPresent();
    FileTime modified = Files.getLastModifiedTime(file);
    long size = Files.size(file);

    // WHEN its bytes are overwritten in place (same file, size and time: no new version)
    String same = Files.readString(file).replace("/data/t.lance", "/data/x.lance");
    Files.writeString(file, same, StandardOpenOption.TRUNCATE_EXISTING);
    Files.setLastModifiedTime(file, modified);

    // THEN the parsed version is reused; a real write (atomic rename) is read again
    assertThat(Files.size(file)).isEqualTo(size);
    assertThat(registry.find(T).orElseThrow().location()).isEqualTo("/data/t.lance");
    registry.register(U, "test", "/data/u.lance", Map.of());
    assertThat(registry.find(T).orElseThrow().location()).isEqualTo("/data/x.lance");
  }

  @Test
  void fileSystemFailures_areExternalUnavailable_andADamagedFileIsInternal() throws Exception {
    // GIVEN a registry whose file is a directory, one whose lock file is, and a damaged file
    Path asDirectory = dir.resolve("dir-registry.json");
    Files.createDirectories(asDirectory);
    Path locked = dir.resolve("locked.json");
    Files.createDirectories(dir.resolve("locked.json.lock"));
    Path damaged = dir.resolve("damaged.json");
    Files.writeString(damaged, "{\"tables\": [");
    // WHEN they are read or written THEN each failure is the port's error, never a raw one
    assertThatThrownBy(() -> new FileRegistry(asDirectory).list())
        .isInstanceOfSatisfying(
            LakeException.class,
            e -> assertThat(e.code()).isEqualTo(ErrorCode.EXTERNAL_UNAVAILABLE))
        .hasMessage("The table registry is unavailable; retry later");
    assertThatThrownBy(
            () -> new FileRegistry(locked).register(T, "test", "/data/t.lance", Map.of()))
        .isInstanceOfSatisfying(
            LakeException.class,
            e -> assertThat(e.code()).isEqualTo(ErrorCode.EXTERNAL_UNAVAILABLE));
    assertThatThrownBy(() -> new FileRegistry(damaged).find(T))
        .isInstanceOfSatisfying(
            LakeException.class, e -> assertThat(e.code()).isEqualTo(ErrorCode.INTERNAL));
    // AND a healthy registry next to them still works
    FileRegistry healthy = new FileRegistry(dir.resolve("ok.json"));
    healthy.register(T, "test", "/data/t.lance", Map.of());
    assertThat(healthy.find(T)).isPresent();
  }
}
