package dev.lake.iceberg;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.lake.core.LakeException;
import dev.lake.core.TableRef;
import java.net.URI;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.junit.jupiter.api.Test;

class IcebergConfigTest {
  @Test
  void fromFlags_appliesTheDocumentedDefaults() {
    // GIVEN only the three local-mode flags WHEN parsed
    IcebergConfig c = IcebergConfig.fromFlags("http://127.0.0.1:8181", "wh", "demo");

    // THEN every other setting has its default
    assertThat(c.uri()).isEqualTo(URI.create("http://127.0.0.1:8181"));
    assertThat(c.warehouse()).contains("wh");
    assertThat(c.prefix()).isEmpty();
    assertThat(c.oauth2()).isEmpty();
    assertThat(c.connectTimeout()).isEqualTo(Duration.ofSeconds(5));
    assertThat(c.readTimeout()).isEqualTo(Duration.ofSeconds(30));
    assertThat(c.maxRetries()).isEqualTo(3);
    assertThat(c.cacheMaxKeys()).isEqualTo(10_000);
    assertThat(c.cacheFresh()).isEqualTo(Duration.ofSeconds(5));
    assertThat(c.cacheStale()).isEqualTo(Duration.ofSeconds(60));
    assertThat(c.properties()).isEmpty();
    assertThat(IcebergConfig.fromFlags("https://cat.example", null, "demo").warehouse()).isEmpty();
  }

  @Test
  void allowlist_parsesNamespacesTablesAndQuotedNestedNamespaces() {
    // WHEN a mixed list is parsed
    IcebergConfig.Allowlist a =
        IcebergConfig.Allowlist.parse("Sales, \"a.b\" ,ops.Orders,\"x.y\".t,iceberg.fin");

    // THEN names are lower-cased and sorted into namespaces and tables
    assertThat(a.namespaces()).containsExactlyInAnyOrder("sales", "a.b", "fin");
    assertThat(a.tables())
        .containsExactlyInAnyOrder(
            new TableRef("iceberg", "ops", "orders"), new TableRef("iceberg", "x.y", "t"));
    assertThat(a.allows(TableRef.parse("iceberg.sales.anything"))).isTrue();
    assertThat(a.allows(TableRef.parse("iceberg.\"a.b\".t"))).isTrue();
    assertThat(a.allows(TableRef.parse("iceberg.a.t"))).isFalse();
    assertThat(a.allows(TableRef.parse("iceberg.ops.orders"))).isTrue();
    assertThat(a.allows(TableRef.parse("iceberg.ops.other"))).isFalse();
    assertThat(a.allows(TableRef.parse("lake.sales.t"))).isFalse();
    assertThat(a.toString()).isEqualTo("\"a.b\",fin,sales,ops.orders,\"x.y\".t");
  }

  @Test
  void allowlist_rejectsEmptyAndAmbiguousEntries() {
    assertThatThrownBy(() -> IcebergConfig.Allowlist.parse(" , "))
        .isInstanceOf(LakeException.class)
        .hasMessage("Iceberg allowlist is empty: name at least one namespace or table");
    assertThatThrownBy(() -> IcebergConfig.Allowlist.parse("a.b.c"))
        .hasMessage("Iceberg allowlist entry a.b.c: quote a nested namespace, e.g. \"a.b\".t");
    assertThatThrownBy(() -> IcebergConfig.Allowlist.parse("\"a.b"))
        .hasMessage("Iceberg allowlist entry \"a.b has an unclosed quote");
  }

  @Test
  void constructor_rejectsOutOfRangeSettings() {
    IcebergConfig c = IcebergConfig.fromFlags("https://h:1", null, "demo");
    assertThatThrownBy(() -> IcebergConfig.fromFlags("ftp://h/x", null, "demo"))
        .hasMessage("Iceberg REST URI must be an absolute http(s) URI: ftp://h");
    assertThatThrownBy(() -> IcebergConfig.fromFlags("http://u:pw@h:1", null, "demo"))
        .hasMessage("Iceberg REST URI must not carry user info; use OAuth2 credentials");
    // a malformed URI is refused with where it breaks, never its text (it may hold credentials)
    assertThatThrownBy(() -> IcebergConfig.fromFlags("http://u:s3cret@h:1/a b", null, "demo"))
        .hasMessage("Iceberg REST URI is not a valid URI (Illegal character in path at index 21)")
        .hasMessageNotContaining("s3cret");
    assertThatThrownBy(() -> c.withTimeouts(Duration.ZERO, Duration.ofSeconds(1), 1))
        .hasMessage("connectTimeout must be between PT0.001S and PT5M: PT0S");
    assertThatThrownBy(() -> c.withTimeouts(Duration.ofSeconds(1), Duration.ofSeconds(1), 11))
        .hasMessage("maxRetries must be between 0 and 10: 11");
    assertThatThrownBy(() -> c.withCache(0, Duration.ofSeconds(5), Duration.ofSeconds(60)))
        .hasMessage("cacheMaxKeys must be between 1 and 1000000: 0");
    assertThatThrownBy(() -> c.withCache(10, Duration.ofSeconds(60), Duration.ofSeconds(5)))
        .hasMessage("cacheStale must be longer than cacheFresh (PT1M): PT5S");
    assertThatThrownBy(() -> c.withProperties(Map.of("rest.client.max-retries", "9")))
        .hasMessage(
            "property rest.client.max-retries is set by IcebergConfig itself; use its field");
  }

  @Test
  void constructor_refusesPlainHttp_offLoopback_forTheCatalogAndTheOAuth2Server() {
    // GIVEN plain http to loopback literals THEN accepted (a catalog on the same host)
    for (String loopback :
        List.of("http://127.0.0.1:8181", "http://localhost:1", "http://[::1]:2")) {
      assertThat(IcebergConfig.fromFlags(loopback, null, "demo").uri().getScheme())
          .isEqualTo("http");
    }
    // GIVEN plain http to another host, or to a name (never resolved) THEN refused at start
    assertThatThrownBy(
            () -> IcebergConfig.fromFlags("http://catalog.internal:8181/p", null, "demo"))
        .hasMessage(
            "Iceberg REST URI must be https off loopback: http://catalog.internal:8181 (lake sends"
                + " catalog requests and OAuth2 credentials over TLS only)");
    assertThatThrownBy(() -> IcebergConfig.fromFlags("http://10.0.0.5:8181", null, "demo"))
        .hasMessageStartingWith(
            "Iceberg REST URI must be https off loopback: http://10.0.0.5:8181");
    IcebergConfig https = IcebergConfig.fromFlags("https://catalog.internal", null, "demo");
    assertThatThrownBy(
            () ->
                https.withOAuth2(
                    new IcebergConfig.OAuth2(
                        "id:s",
                        Optional.of(URI.create("http://idp.example/token")),
                        Optional.empty())))
        .hasMessageStartingWith("OAuth2 server URI must be https off loopback: http://idp.example");
  }

  @Test
  void toString_redactsTheOAuth2CredentialAndSecretProperties() {
    // GIVEN a config holding an OAuth2 secret and an S3 secret key
    IcebergConfig c =
        IcebergConfig.fromFlags("https://cat.example:8443/api", null, "demo")
            .withOAuth2(
                new IcebergConfig.OAuth2(
                    "client:very-secret",
                    Optional.of(URI.create("https://idp/t")),
                    Optional.empty()))
            .withProperties(Map.of("s3.secret-access-key", "s3-secret", "s3.endpoint", "http://m"));

    // WHEN printed THEN no secret and no URI path shows
    assertThat(c.toString())
        .doesNotContain("very-secret")
        .doesNotContain("s3-secret")
        .contains("s3.endpoint=http://m")
        .contains("uri=https://cat.example:8443,");
  }

  @Test
  void catalogProperties_carryTimeoutsRetriesAndCredentialsToTheIcebergClient() {
    IcebergConfig c =
        IcebergConfig.fromFlags("https://h:1", "wh", "demo")
            .withOAuth2(new IcebergConfig.OAuth2("id:s", Optional.empty(), Optional.of("catalog")))
            .withTimeouts(Duration.ofSeconds(2), Duration.ofSeconds(7), 4);
    Map<String, String> p = CatalogClient.catalogProperties(c);
    assertThat(p)
        .containsEntry("uri", "https://h:1")
        .containsEntry("warehouse", "wh")
        .containsEntry("rest.client.connection-timeout-ms", "2000")
        .containsEntry("rest.client.socket-timeout-ms", "7000")
        .containsEntry("rest.client.max-retries", "4")
        .containsEntry("credential", "id:s")
        .containsEntry("scope", "catalog")
        .containsEntry("snapshot-loading-mode", "all");
    assertThat(CatalogClient.Redactor.of(c).redact("token for id:s and s")).doesNotContain("id:s");
    assertThat(Set.of(p.keySet().toArray())).doesNotContain("oauth2-server-uri");
  }
}
