package dev.lake.core.local;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.lake.core.Registry;
import dev.lake.core.TableRef;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class FileRegistryTest {
  @TempDir Path dir;

  @Test
  void register_thenFind_survivesANewInstance() {
    TableRef ref = TableRef.parse("lake.tpch.nation");
    Registry.Entry entry =
        new FileRegistry(dir.resolve("registry.json")).register(ref, "/d/nation.lance");
    assertThat(new FileRegistry(dir.resolve("registry.json")).find(ref)).contains(entry);
  }

  @Test
  void reRegister_afterUnregister_yieldsANewIncarnation() {
    FileRegistry registry = new FileRegistry(dir.resolve("registry.json"));
    TableRef ref = TableRef.parse("lake.tpch.nation");
    String first = registry.register(ref, "/d/nation.lance").incarnation();
    assertThat(registry.unregister(ref)).isTrue();
    assertThat(registry.find(ref)).isEmpty();
    String second = registry.register(ref, "/d/nation.lance").incarnation();
    assertThat(second).isNotEqualTo(first);
    assertThat(registry.unregister(TableRef.parse("lake.tpch.missing"))).isFalse();
  }

  @Test
  void register_rejects_duplicatesAndForeignCatalogs() {
    FileRegistry registry = new FileRegistry(dir.resolve("registry.json"));
    registry.register(TableRef.parse("lake.tpch.nation"), "/d/n");
    assertThatThrownBy(() -> registry.register(TableRef.parse("lake.tpch.nation"), "/d/n"))
        .hasMessage("Table lake.tpch.nation is already registered");
    assertThatThrownBy(() -> registry.register(TableRef.parse("iceberg.tpch.nation"), "/d/n"))
        .hasMessage("Only lake.<namespace>.<table> names can be registered: iceberg.tpch.nation");
  }
}
