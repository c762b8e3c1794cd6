package dev.lake.frontdoor;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.nimbusds.jose.jwk.JWKSet;
import com.nimbusds.jose.jwk.RSAKey;
import dev.lake.app.LakeCli;
import dev.lake.core.LakeException;
import dev.lake.core.Principal;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.net.ServerSocket;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/** JWT identities without a server: a file key set, claims, configuration and flags. */
class JwtAuthenticatorTest {
  @TempDir Path dir;

  @Test
  void fileKeySet_acceptsASignedToken_withGrantsAsOneSpaceSeparatedString() throws Exception {
    // GIVEN a key set on this machine and a token whose grants claim is one string
    RSAKey key = JwtProvider.newKey("file-k1");
    Path jwks = dir.resolve("jwks.json");
    Files.writeString(jwks, new JWKSet(key).toPublicJWKSet().toString());
    JwtAuthenticator jwt =
        new JwtAuthenticator(JwtConfig.of(jwks.toUri(), JwtProvider.ISSUER, JwtProvider.AUDIENCE));
    String token =
        JwtProvider.sign(key, c -> c.claim("lake_grants", "lake.tpch  lake.pin.t").subject("u1"));
    // WHEN it is presented THEN the principal is sub in the tenant claim with those grants
    assertThat(jwt.resolvePrincipal(token))
        .isEqualTo(Principal.of("initech", "u1", Set.of("lake.tpch", "lake.pin.t")));
    // AND a bad grant in the claim refuses the token, naming the claim
    String bad = JwtProvider.sign(key, c -> c.claim("lake_grants", List.of("a.b.c.d")));
    assertThatThrownBy(() -> jwt.resolvePrincipal(bad))
        .isInstanceOf(LakeException.class)
        .hasMessageStartingWith("JWT claim 'lake_grants': ");
  }

  @Test
  void unreachableKeySet_failsClosed_beforeAnyKeyWasKnown() throws Exception {
    // GIVEN an https key set on a port nothing listens on
    int port;
    try (ServerSocket s = new ServerSocket(0)) {
      port = s.getLocalPort();
    }
    JwtAuthenticator jwt =
        new JwtAuthenticator(
            JwtConfig.of(
                URI.create("https://127.0.0.1:" + port + "/jwks.json"),
                JwtProvider.ISSUER,
                JwtProvider.AUDIENCE));
    String token = JwtProvider.sign(JwtProvider.newKey("k1"), c -> c);
    // THEN a well-formed token is refused: no valid key is known
    assertThatThrownBy(() -> jwt.resolvePrincipal(token))
        .hasMessage(
            "No valid signing key is known: the identity provider's key set is unavailable; retry"
                + " later");
    assertThatThrownBy(() -> jwt.resolvePrincipal("a.b.c")).hasMessage("Malformed JWT");
  }

  @Test
  void bearer_routesJwtShapedTokensToJwt_andTheRestToStaticTokens() {
    Principals statics =
        new Principals(
            List.of(new PrincipalEntry(Principals.sha256Hex("plain"), "acme", "a", List.of())));
    Authenticator jwtOnly = t -> Principal.of("jwt", "j", Set.of());
    BearerAuthenticator both = new BearerAuthenticator(Optional.of(statics), Optional.of(jwtOnly));
    assertThat(both.resolvePrincipal("plain").tenant()).isEqualTo("acme");
    assertThat(both.resolvePrincipal("x.y.z").tenant()).isEqualTo("jwt");
    BearerAuthenticator noJwt = new BearerAuthenticator(Optional.of(statics), Optional.empty());
    assertThatThrownBy(() -> noJwt.resolvePrincipal("x.y.z")).hasMessage("Unknown bearer token");
    BearerAuthenticator noStatic = new BearerAuthenticator(Optional.empty(), Optional.of(jwtOnly));
    assertThatThrownBy(() -> noStatic.resolvePrincipal("plain")).hasMessage("Unknown bearer token");
    assertThatThrownBy(() -> new BearerAuthenticator(Optional.empty(), Optional.empty()))
        .hasMessage(
            "configure --principals-file or --principals-secret, --jwt-jwks-url, or both: lake"
                + " admits nobody otherwise");
  }

  @Test
  void config_hasDefaults_andRefusesPlainHttpAndMissingIssuerOrAudience() {
    JwtConfig c = JwtConfig.of(URI.create("https://idp/jwks"), "iss", "aud");
    assertThat(c.tenantClaim()).isEqualTo("tenant");
    assertThat(c.grantsClaim()).isEqualTo("lake_grants");
    assertThat(c.clockSkew()).isEqualTo(Duration.ofSeconds(60));
    assertThat(c.jwksCacheTtl()).isEqualTo(Duration.ofMinutes(5));
    assertThat(c.jwksMinRefreshInterval()).isEqualTo(Duration.ofSeconds(30));
    assertThat(IdentityConfig.defaults())
        .isEqualTo(new IdentityConfig(Optional.empty(), Duration.ofSeconds(10)));
    assertThatThrownBy(() -> JwtConfig.of(URI.create("http://idp/jwks"), "iss", "aud"))
        .hasMessage(
            "--jwt-jwks-url must be an https: URL (or file: for a key set on this machine):"
                + " http://idp/jwks");
    assertThatThrownBy(() -> JwtConfig.of(URI.create("https://idp/jwks"), " ", "aud"))
        .hasMessage("--jwt-issuer is required with --jwt-jwks-url");
    assertThatThrownBy(() -> JwtConfig.of(URI.create("https://idp/jwks"), "iss", ""))
        .hasMessage("--jwt-audience is required with --jwt-jwks-url");
    assertThatThrownBy(() -> c.withKeySetTiming(Duration.ofMinutes(5), Duration.ofMillis(10)))
        .hasMessage("--jwt-jwks-min-refresh-interval must be between PT0.1S and PT1H: PT0.01S");
  }

  @Test
  void serveFlags_andLakeJwtVariables_buildTheIdentityConfig() {
    // GIVEN serve with the key set as a variable and the rest as flags
    CommandLine cli =
        LakeCli.commandLine(
            Map.of("LAKE_JWT_JWKS_URL", "https://cognito-idp.example/pool/.well-known/jwks.json"));
    cli.parseArgs(
        "serve",
        "--jwt-issuer",
        "https://cognito-idp.example/pool",
        "--jwt-audience",
        "app-client",
        "--jwt-tenant-claim",
        "custom:tenant",
        "--principals-reload-interval",
        "PT30S");
    IdentityConfig config =
        ((LakeCli.Serve) cli.getSubcommands().get("serve").getCommand()).identity.config();
    JwtConfig jwt = config.jwt().orElseThrow();
    assertThat(jwt.jwksUrl().toString())
        .isEqualTo("https://cognito-idp.example/pool/.well-known/jwks.json");
    assertThat(jwt.tenantClaim()).isEqualTo("custom:tenant");
    assertThat(jwt.grantsClaim()).isEqualTo("lake_grants");
    assertThat(config.principalsReloadInterval()).isEqualTo(Duration.ofSeconds(30));
    // AND an issuer without a key set is one line, exit 2
    StringWriter err = new StringWriter();
    CommandLine bad = LakeCli.commandLine(Map.of("LAKE_JWT_ISSUER", "https://idp"));
    bad.setErr(new PrintWriter(err));
    assertThat(bad.execute("local", "--port", "0", "--data-dir", dir.toString())).isEqualTo(2);
    assertThat(err.toString().trim())
        .isEqualTo("lake: --jwt-issuer and --jwt-audience need --jwt-jwks-url (LAKE_JWT_JWKS_URL)");
    assertThat(dir.resolve("tables")).doesNotExist();
  }
}
