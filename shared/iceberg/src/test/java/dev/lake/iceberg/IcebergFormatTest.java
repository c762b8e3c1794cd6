package dev.lake.iceberg;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import dev.lake.core.FormatContext;
import dev.lake.core.FormatOptions;
import dev.lake.core.Grant;
import dev.lake.core.Json;
import dev.lake.core.SnapshotSet;
import dev.lake.core.TableFormats;
import dev.lake.core.TableRef;
import dev.lake.core.local.FileRegistry;
import dev.lake.core.testing.TestFormatContext;
import dev.lake.core.ticket.SnapshotCodec;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.apache.arrow.memory.RootAllocator;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

class IcebergFormatTest {
  @Test
  void iceberg_isInstalled_andKeepsItsEnvelopeEncoding() throws Exception {
    // GIVEN a sealed-set entry exactly as earlier releases wrote it for an Iceberg table
    JsonNode wire =
        Json.mapper()
            .readTree(
                "[{\"catalog\":\"iceberg\",\"namespace\":\"a.b\",\"table\":\"t\","
                    + "\"type\":\"iceberg\",\"catalogName\":\"rest\",\"tableUuid\":\"uuid-1\","
                    + "\"snapshotId\":42,\"metadataLocation\":\"s3://m.json\"}]");
    SnapshotSet set =
        new SnapshotSet(
            Map.of(
                new TableRef("iceberg", "a.b", "t"),
                new IcebergSnapshot("rest", "uuid-1", 42L, "s3://m.json")));
    // THEN the Iceberg module's format is registered and reads and writes that same form
    assertThat(TableFormats.installed().tags()).contains(IcebergFormat.TAG);
    assertThat(SnapshotCodec.fromJson(wire)).isEqualTo(set);
    assertThat(Json.mapper().readTree(SnapshotCodec.toJson(set).toString())).isEqualTo(wire);
  }

  @Test
  void open_servesNothing_whenNoRestCatalogIsConfigured(@TempDir Path dir) {
    // GIVEN a process whose settings name no Iceberg REST catalog (only how files would be read)
    try (RootAllocator allocator = new RootAllocator()) {
      FormatContext context =
          TestFormatContext.local(
              new FileRegistry(dir.resolve("registry.json")),
              allocator,
              List.of(IcebergFilesConfig.defaults()));
      // THEN the format builds no catalog
      assertThat(new IcebergFormat().open(context)).isEmpty();
    }
    // AND its tables are never registered in lake's registry (they come from the REST catalog)
    assertThatThrownBy(() -> TableFormats.installed().checkEntry(IcebergFormat.TAG, "/t", Map.of()))
        .hasMessage("Tables of format 'iceberg' are not registered in lake's registry");
  }

  /** The settings {@code args} give the format's own options, parsed as a lake command does. */
  private static List<Object> settings(String... args) {
    FormatOptions options = new IcebergFormat().newOptions().orElseThrow();
    new CommandLine(options).parseArgs(args);
    return options.settings();
  }

  @Test
  void options_areTheIcebergFlags_offUnlessARestCatalogIsGiven() {
    // GIVEN no flags THEN federation is off and data files are read as by default
    assertThat(settings()).containsExactly(IcebergFilesConfig.defaults());
    // GIVEN a REST catalog, its allowlist and file flags
    List<Object> settings =
        settings(
            "--iceberg-rest",
            "http://127.0.0.1:8181",
            "--iceberg-allow",
            "demo,\"a.b\",ops.orders",
            "--no-iceberg-direct-reads",
            "--iceberg-file-cache-mb",
            "64");
    // THEN they become the format's validated records
    assertThat(settings)
        .containsExactly(
            IcebergConfig.fromFlags("http://127.0.0.1:8181", null, "demo,\"a.b\",ops.orders"),
            new IcebergFilesConfig(false, Optional.empty(), 64L << 20));
    // AND the allowlist is what a principal needs to read the federated tables (a set: its
    // namespaces come in no particular order)
    assertThat(new IcebergFormat().grantsToRead(settings).stream().map(Grant::toString))
        .containsExactlyInAnyOrder("iceberg.demo", "iceberg.\"a.b\"", "iceberg.ops.orders");
    assertThat(new IcebergFormat().grantsToRead(settings())).isEmpty();
    // AND a missing companion flag is refused naming it
    assertThatThrownBy(() -> settings("--iceberg-rest", "http://127.0.0.1:8181"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageStartingWith("--iceberg-rest needs --iceberg-allow");
  }

  @Test
  void options_defaults_areTheConfigDefaults() {
    // GIVEN only the required flags THEN every catalog bound is IcebergConfig's default
    IcebergConfig config =
        (IcebergConfig)
            settings("--iceberg-rest", "https://cat.example", "--iceberg-allow", "demo").get(0);
    assertThat(config).isEqualTo(IcebergConfig.fromFlags("https://cat.example", null, "demo"));
    assertThat(config.connectTimeout()).isEqualTo(IcebergConfig.DEFAULT_CONNECT_TIMEOUT);
    assertThat(config.readTimeout()).isEqualTo(IcebergConfig.DEFAULT_READ_TIMEOUT);
    assertThat(config.maxRetries()).isEqualTo(IcebergConfig.DEFAULT_MAX_RETRIES);
    assertThat(config.cacheMaxKeys()).isEqualTo(IcebergConfig.DEFAULT_CACHE_MAX_KEYS);
    assertThat(config.cacheFresh()).isEqualTo(IcebergConfig.DEFAULT_CACHE_FRESH);
    assertThat(config.cacheStale()).isEqualTo(IcebergConfig.DEFAULT_CACHE_STALE);
    assertThat(config.oauth2()).isEmpty();
  }

  @Test
  void options_setOAuth2_timeouts_andTheResolutionCache_withinTheirBounds() {
    // GIVEN every catalog flag
    IcebergConfig config =
        (IcebergConfig)
            settings(
                    "--iceberg-rest", "https://cat.example",
                    "--iceberg-allow", "demo",
                    "--iceberg-oauth2-credential", "client:secret",
                    "--iceberg-oauth2-server-uri", "https://idp.example/token",
                    "--iceberg-oauth2-scope", "catalog",
                    "--iceberg-connect-timeout", "PT2S",
                    "--iceberg-read-timeout", "PT9S",
                    "--iceberg-max-retries", "5",
                    "--iceberg-cache-max-tables", "50",
                    "--iceberg-cache-fresh", "PT1S",
                    "--iceberg-cache-stale", "PT20S")
                .get(0);
    // THEN the config carries them, and the client gets the credential, scope and token endpoint
    assertThat(config.oauth2().orElseThrow().serverUri())
        .contains(java.net.URI.create("https://idp.example/token"));
    assertThat(config.connectTimeout()).isEqualTo(java.time.Duration.ofSeconds(2));
    assertThat(config.readTimeout()).isEqualTo(java.time.Duration.ofSeconds(9));
    assertThat(config.maxRetries()).isEqualTo(5);
    assertThat(config.cacheMaxKeys()).isEqualTo(50);
    assertThat(config.cacheFresh()).isEqualTo(java.time.Duration.ofSeconds(1));
    assertThat(config.cacheStale()).isEqualTo(java.time.Duration.ofSeconds(20));
    assertThat(config.toString()).doesNotContain("secret");
    // AND out-of-bounds values and orphaned OAuth2 flags are refused naming the setting
    assertThatThrownBy(
            () ->
                settings(
                    "--iceberg-rest",
                    "https://c",
                    "--iceberg-allow",
                    "d",
                    "--iceberg-max-retries",
                    "11"))
        .hasMessage("maxRetries must be between 0 and 10: 11");
    assertThatThrownBy(
            () ->
                settings(
                    "--iceberg-rest",
                    "https://c",
                    "--iceberg-allow",
                    "d",
                    "--iceberg-cache-fresh",
                    "PT2M"))
        .hasMessage("cacheStale must be longer than cacheFresh (PT2M): PT1M");
    assertThatThrownBy(
            () ->
                settings(
                    "--iceberg-rest",
                    "https://c",
                    "--iceberg-allow",
                    "d",
                    "--iceberg-oauth2-scope",
                    "x"))
        .hasMessage(
            "--iceberg-oauth2-server-uri/--iceberg-oauth2-scope need --iceberg-oauth2-credential");
    assertThatThrownBy(
            () -> settings("--iceberg-rest", "http://catalog:8181", "--iceberg-allow", "d"))
        .hasMessageStartingWith("Iceberg REST URI must be https off loopback");
  }
}
