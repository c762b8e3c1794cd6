package dev.lake.core.contract;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.lake.core.ErrorCode;
import dev.lake.core.LakeException;
import dev.lake.core.Registry;
import dev.lake.core.TableRef;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/**
 * What every {@link Registry} must do (the file registry of local mode, the DynamoDB one of AWS
 * mode). {@link #registry()} returns a fresh, empty registry; {@link #sameRegistry} a second handle
 * on the same storage (another process's view); {@link #writeLegacy} stores a table exactly as
 * releases before format tags did. Tables use core's test format (tag {@code test}).
 */
public abstract class RegistryContract {
  private static final String TEST = "test";

  protected abstract Registry registry();

  protected abstract Registry sameRegistry(Registry registry);

  /** Stores {@code ref} at {@code location} in the pre-format shape (no format, no options). */
  protected abstract void writeLegacy(Registry registry, TableRef ref, String location);

  /**
   * What a process built before format tags reads as the Lance location of {@code ref}: the stored
   * {@code location} field, exactly as those releases read it (they read every entry as Lance).
   */
  protected abstract String readAsLegacy(Registry registry, TableRef ref);

  /** A table name unique to this test run (the AWS suite shares one table across tests). */
  private static TableRef fresh() {
    return TableRef.parse("lake.t" + UUID.randomUUID().toString().substring(0, 8) + ".nation");
  }

  @Test
  void register_thenFind_isSeenByAnotherHandle_withItsFormatAndOptions() {
    // GIVEN a table registered with its format and format-owned options
    Registry registry = registry();
    TableRef ref = fresh();
    Registry.Entry entry =
        registry.register(ref, TEST, "s3://bucket/nation", Map.of("mode", "a", "level", "2"));
    // THEN another handle reads the same entry back
    assertThat(entry.format()).isEqualTo(TEST);
    assertThat(entry.options()).isEqualTo(Map.of("mode", "a", "level", "2"));
    assertThat(sameRegistry(registry).find(ref)).contains(entry);
    assertThat(sameRegistry(registry).list()).contains(entry);
  }

  @Test
  void reRegister_afterUnregister_yieldsANewIncarnation() {
    Registry registry = registry();
    TableRef ref = fresh();
    String first = registry.register(ref, TEST, "/d/nation", Map.of()).incarnation();
    assertThat(registry.unregister(ref)).isTrue();
    assertThat(registry.find(ref)).isEmpty();
    String second = registry.register(ref, TEST, "/d/nation", Map.of()).incarnation();
    assertThat(second).isNotEqualTo(first);
    assertThat(registry.unregister(fresh())).isFalse();
  }

  @Test
  void register_rejects_duplicatesAndForeignCatalogs() {
    Registry registry = registry();
    TableRef ref = fresh();
    registry.register(ref, TEST, "/d/n", Map.of());
    assertThatThrownBy(() -> sameRegistry(registry).register(ref, TEST, "/d/other", Map.of()))
        .hasMessage("Table " + ref + " is already registered");
    assertThat(registry.find(ref).orElseThrow().location()).isEqualTo("/d/n");
    assertThatThrownBy(
            () -> registry.register(TableRef.parse("iceberg.tpch.nation"), TEST, "/d/n", Map.of()))
        .hasMessage("Only lake.<namespace>.<table> names can be registered: iceberg.tpch.nation");
  }

  @Test
  void register_failsClosed_onAnUnknownFormat_orWhatTheFormatRefuses() {
    // GIVEN a registry
    Registry registry = registry();
    TableRef ref = fresh();
    // WHEN a table names a format no installed module owns, or one its format refuses
    // THEN it is refused as INVALID_ARGUMENT and nothing is stored
    assertThatThrownBy(() -> registry.register(ref, "delta", "/d/n", Map.of()))
        .isInstanceOfSatisfying(
            LakeException.class, e -> assertThat(e.code()).isEqualTo(ErrorCode.INVALID_ARGUMENT))
        .hasMessageStartingWith("Unknown table format 'delta'; installed: ")
        .hasMessageContaining(TEST);
    assertThatThrownBy(() -> registry.register(ref, TEST, " ", Map.of()))
        .isInstanceOfSatisfying(
            LakeException.class, e -> assertThat(e.code()).isEqualTo(ErrorCode.INVALID_ARGUMENT))
        .hasMessage("A test table needs a location");
    assertThat(registry.find(ref)).isEmpty();
    // AND the same name registers fine afterwards
    assertThat(registry.register(ref, TEST, "/d/n", Map.of()).ref()).isEqualTo(ref);
  }

  @Test
  void aTableOfAnotherFormat_isStoredSoThatAProcessBuiltBeforeFormatsCannotReadItAsLance() {
    // GIVEN a table of another format than Lance, with options
    Registry registry = registry();
    TableRef ref = fresh();
    Registry.Entry entry =
        registry.register(ref, TEST, "/d/nation.lance", Map.of("filter", "n_nationkey < 3"));
    // WHEN a process built before formats were named reads what is stored
    String legacyLocation = readAsLegacy(registry, ref);
    // THEN it sees a location no Lance library opens (it fails closed), never the table's own
    assertThat(legacyLocation)
        .isEqualTo(Registry.UNREADABLE_BY_LEGACY + TEST)
        .isEqualTo("lake-table-format://test");
    // AND this release still reads the entry back exactly
    assertThat(sameRegistry(registry).find(ref)).contains(entry);
    assertThat(sameRegistry(registry).list()).contains(entry);
    assertThat(entry.location()).isEqualTo("/d/nation.lance");
  }

  @Test
  void aTableStoredBeforeFormatsWereNamed_readsAsALegacyFormatTable() {
    // GIVEN a table stored in the shape earlier releases wrote (location only)
    Registry registry = registry();
    TableRef ref = fresh();
    writeLegacy(registry, ref, "/d/old.lance");
    // THEN it reads as a Lance table at that location, without options, and lists
    Registry.Entry entry = sameRegistry(registry).find(ref).orElseThrow();
    assertThat(entry.format()).isEqualTo(Registry.LEGACY_FORMAT).isEqualTo("lance");
    assertThat(entry.location()).isEqualTo("/d/old.lance");
    assertThat(entry.options()).isEmpty();
    assertThat(sameRegistry(registry).list()).contains(entry);
  }
}
