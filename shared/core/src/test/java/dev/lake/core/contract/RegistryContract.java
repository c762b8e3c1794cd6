package dev.lake.core.contract;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.lake.core.Registry;
import dev.lake.core.TableRef;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/**
 * What every {@link Registry} must do (the file registry of local mode, the DynamoDB one of AWS
 * mode). {@link #registry()} returns a fresh, empty registry; {@link #sameRegistry} a second handle
 * on the same storage (another process's view).
 */
public abstract class RegistryContract {
  protected abstract Registry registry();

  protected abstract Registry sameRegistry(Registry registry);

  /** A table name unique to this test run (the AWS suite shares one table across tests). */
  private static TableRef fresh() {
    return TableRef.parse("lake.t" + UUID.randomUUID().toString().substring(0, 8) + ".nation");
  }

  @Test
  void register_thenFind_isSeenByAnotherHandle() {
    Registry registry = registry();
    TableRef ref = fresh();
    Registry.Entry entry = registry.register(ref, "s3://bucket/nation.lance");
    assertThat(sameRegistry(registry).find(ref)).contains(entry);
    assertThat(sameRegistry(registry).list()).contains(entry);
  }

  @Test
  void reRegister_afterUnregister_yieldsANewIncarnation() {
    Registry registry = registry();
    TableRef ref = fresh();
    String first = registry.register(ref, "/d/nation.lance").incarnation();
    assertThat(registry.unregister(ref)).isTrue();
    assertThat(registry.find(ref)).isEmpty();
    String second = registry.register(ref, "/d/nation.lance").incarnation();
    assertThat(second).isNotEqualTo(first);
    assertThat(registry.unregister(fresh())).isFalse();
  }

  @Test
  void register_rejects_duplicatesAndForeignCatalogs() {
    Registry registry = registry();
    TableRef ref = fresh();
    registry.register(ref, "/d/n");
    assertThatThrownBy(() -> sameRegistry(registry).register(ref, "/d/other"))
        .hasMessage("Table " + ref + " is already registered");
    assertThat(registry.find(ref).orElseThrow().location()).isEqualTo("/d/n");
    assertThatThrownBy(() -> registry.register(TableRef.parse("iceberg.tpch.nation"), "/d/n"))
        .hasMessage("Only lake.<namespace>.<table> names can be registered: iceberg.tpch.nation");
  }
}
