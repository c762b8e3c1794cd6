package dev.lake.app;

import static dev.lake.frontdoor.TestLake.bearer;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.lake.aws.AwsClients;
import dev.lake.aws.SecretsManagerSecret;
import dev.lake.aws.testing.MotoExtension;
import dev.lake.core.DataLocations;
import dev.lake.core.testing.Poll;
import dev.lake.engine.EngineConfig;
import dev.lake.frontdoor.Components;
import dev.lake.frontdoor.FrontDoorConfig;
import dev.lake.frontdoor.IdentityConfig;
import dev.lake.frontdoor.LakeServer;
import dev.lake.frontdoor.PolledPrincipals;
import dev.lake.frontdoor.Principals;
import dev.lake.lance.demo.TpchDemo;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import org.apache.arrow.flight.FlightClient;
import org.apache.arrow.flight.FlightRuntimeException;
import org.apache.arrow.flight.FlightStatusCode;
import org.apache.arrow.flight.FlightStream;
import org.apache.arrow.flight.Location;
import org.apache.arrow.flight.sql.FlightSqlClient;
import org.apache.arrow.memory.RootAllocator;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.secretsmanager.SecretsManagerClient;

/**
 * {@code serve --principals-secret}: the principals JSON lives in a Secrets Manager secret (moto),
 * read at start and polled; a new version rotates tokens without a restart, a bad version keeps the
 * last good set, an unreadable secret keeps it too, and a secret that cannot be loaded at start
 * refuses to start. Each step ends with another tenant's fresh query.
 */
@ExtendWith(MotoExtension.class)
class PrincipalsSecretTest {
  private static final Duration POLL = Duration.ofMillis(200);

  @TempDir Path dir;
  private SecretsManagerClient sm;
  private String secretId;

  @BeforeEach
  void secrets() {
    sm =
        SecretsManagerClient.builder()
            .endpointOverride(MotoExtension.endpoint())
            .region(Region.US_EAST_1)
            .credentialsProvider(
                StaticCredentialsProvider.create(
                    AwsBasicCredentials.create(AwsClients.EMULATOR_KEY, AwsClients.EMULATOR_KEY)))
            .build();
    secretId = "lake-principals-" + UUID.randomUUID();
  }

  @AfterEach
  void close() {
    sm.close();
  }

  private static String principals(String... tokenTenantPairs) {
    StringBuilder json = new StringBuilder("{\"principals\":[");
    for (int i = 0; i < tokenTenantPairs.length; i += 2) {
      json.append(i == 0 ? "" : ",")
          .append("{\"tokenSha256\":\"")
          .append(Principals.sha256Hex(tokenTenantPairs[i]))
          .append("\",\"tenant\":\"")
          .append(tokenTenantPairs[i + 1])
          .append("\",\"id\":\"")
          .append(tokenTenantPairs[i])
          .append("\",\"grants\":[\"lake.tpch\"]}");
    }
    return json.append("]}").toString();
  }

  private PolledPrincipals start() {
    return PolledPrincipals.start(
        new SecretPrincipalsSource(
            new SecretsManagerSecret(MotoExtension.clientsConfig(), secretId)),
        POLL,
        Clock.systemUTC());
  }

  private void put(String json) {
    sm.putSecretValue(b -> b.secretId(secretId).secretString(json));
  }

  @Test
  void newVersions_rotateTokensWithoutRestart_badOrUnreadableOnesKeepTheLastGoodSet()
      throws Exception {
    // GIVEN a front door whose static tokens come from a secret admitting alice (acme)
    Path data = dir.resolve("data");
    Path registry = dir.resolve("registry.json");
    sm.createSecret(b -> b.name(secretId).secretString(principals("alice", "acme")));
    try (RootAllocator allocator = new RootAllocator()) {
      TpchDemo.generate(data, 0.001, new dev.lake.core.local.FileRegistry(registry), allocator);
    }
    LakeRuntime runtime =
        LakeRuntime.start(
            RuntimeConfig.builder(
                    RegistrySource.file(registry),
                    new KeySource.CreatedFile(dir.resolve("keyring.json")),
                    EngineConfig.defaults(dir.resolve("spill")))
                .formatSettings(List.of(DataLocations.of(data)))
                .build());
    try (PolledPrincipals polled = start();
        Components components = Wiring.components(runtime);
        LakeServer server =
            LakeServer.start(
                FrontDoorConfig.defaults().withListener("127.0.0.1", 0),
                components,
                IdentityConfig.defaults().authenticator(Optional.of(polled)),
                Clock.systemUTC(),
                Optional.empty());
        FlightSqlClient client =
            new FlightSqlClient(
                FlightClient.builder(
                        runtime.allocator(), Location.forGrpcInsecure("127.0.0.1", server.port()))
                    .build())) {
      assertThat(count(client, "alice")).isEqualTo(25);
      assertThat(unauthenticated(client, "gina")).isTrue();

      // WHEN the operator puts a new version adding gina (globex): no restart
      put(principals("alice", "acme", "gina", "globex"));
      // THEN gina is admitted within a poll
      Poll.until(Duration.ofSeconds(10), () -> !unauthenticated(client, "gina"), "gina admitted");
      assertThat(count(client, "gina")).isEqualTo(25);

      // WHEN a broken version is put (not JSON), and then one with a bad hash
      String good = polled.seenVersion();
      put("{\"principals\": [ {\"tokenSha256\": ");
      Poll.until(Duration.ofSeconds(10), () -> !polled.seenVersion().equals(good), "bad read");
      put("{\"principals\":[{\"tokenSha256\":\"zz\",\"tenant\":\"acme\",\"id\":\"x\"}]}");
      String bad = polled.seenVersion();
      Poll.until(Duration.ofSeconds(10), () -> !polled.seenVersion().equals(bad), "bad read");
      // THEN the last good set stays in force for both tenants
      assertThat(polled.entries()).isEqualTo(2);
      assertThat(count(client, "alice")).isEqualTo(25);

      // WHEN a version revokes alice
      put(principals("gina", "globex"));
      // THEN alice is refused, and gina's fresh query answers
      Poll.until(Duration.ofSeconds(10), () -> unauthenticated(client, "alice"), "alice revoked");
      assertThat(count(client, "gina")).isEqualTo(25);

      // WHEN the secret becomes unreadable (deleted)
      sm.deleteSecret(b -> b.secretId(secretId).forceDeleteWithoutRecovery(true));
      Thread.sleep(POLL.multipliedBy(3).toMillis());
      // THEN the last good set still holds: alice refused, gina's fresh query answers
      assertThat(unauthenticated(client, "alice")).isTrue();
      assertThat(count(client, "gina")).isEqualTo(25);
    }
  }

  @Test
  void start_failsClosed_onAMissingSecret_andOnAnInvalidOne() {
    // a secret that does not exist: nothing to admit anyone with, lake refuses to start
    assertThatThrownBy(this::start)
        .isInstanceOf(UncheckedIOException.class)
        .hasMessageStartingWith("cannot read principals secret " + secretId);
    // a secret whose current version is invalid
    sm.createSecret(b -> b.name(secretId).secretString("{\"principals\": 7}"));
    assertThatThrownBy(this::start)
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("principals secret " + secretId + " must hold {\"principals\":[...]}");
  }

  /** {@code SELECT count(*) FROM lake.tpch.nation} as {@code token}. */
  private static long count(FlightSqlClient client, String token) throws Exception {
    var info = client.execute("SELECT count(*) FROM lake.tpch.nation", bearer(token));
    try (FlightStream stream =
        client.getStream(info.getEndpoints().get(0).getTicket(), bearer(token))) {
      assertThat(stream.next()).isTrue();
      return ((Number) stream.getRoot().getVector(0).getObject(0)).longValue();
    }
  }

  private static boolean unauthenticated(FlightSqlClient client, String token) {
    try {
      client.execute("SELECT 1", bearer(token));
      return false;
    } catch (FlightRuntimeException e) {
      assertThat(e.status().code()).isEqualTo(FlightStatusCode.UNAUTHENTICATED);
      return true;
    }
  }
}
