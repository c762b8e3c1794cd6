package dev.lake.frontdoor;

import static org.assertj.core.api.Assertions.assertThat;

import com.nimbusds.jose.JWSAlgorithm;
import com.nimbusds.jose.JWSHeader;
import com.nimbusds.jose.crypto.RSASSASigner;
import com.nimbusds.jose.jwk.JWKSet;
import com.nimbusds.jose.jwk.RSAKey;
import com.nimbusds.jose.jwk.gen.RSAKeyGenerator;
import com.nimbusds.jwt.JWTClaimsSet;
import com.nimbusds.jwt.SignedJWT;
import com.sun.net.httpserver.HttpsConfigurator;
import com.sun.net.httpserver.HttpsServer;
import java.io.FileInputStream;
import java.io.InputStream;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.security.KeyStore;
import java.security.cert.Certificate;
import java.time.Instant;
import java.util.Date;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.UnaryOperator;
import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLSocketFactory;
import javax.net.ssl.TrustManagerFactory;

/**
 * A tiny OIDC provider for tests: RSA signing keys made here, a JSON Web Key Set served over HTTPS
 * on loopback with a self-signed certificate (made by keytool), and tokens signed by those keys.
 */
final class JwtProvider implements AutoCloseable {
  static final String ISSUER = "https://idp.test.example/";
  static final String AUDIENCE = "lake-test";

  private volatile String jwks = "{\"keys\":[]}";
  final AtomicInteger fetches = new AtomicInteger();
  private final HttpsServer server;
  private final SSLSocketFactory clientTls;

  JwtProvider(Path dir) throws Exception {
    char[] pass = "changeit".toCharArray();
    Path store = dir.resolve("jwks-server.p12");
    Process keytool =
        new ProcessBuilder(
                Path.of(System.getProperty("java.home"), "bin", "keytool").toString(),
                "-genkeypair",
                "-alias",
                "idp",
                "-keyalg",
                "EC",
                "-groupname",
                "secp256r1",
                "-dname",
                "CN=localhost",
                "-ext",
                "san=ip:127.0.0.1,dns:localhost",
                "-validity",
                "1",
                "-storetype",
                "PKCS12",
                "-keystore",
                store.toString(),
                "-storepass",
                "changeit",
                "-keypass",
                "changeit")
            .redirectErrorStream(true)
            .start();
    assertThat(keytool.waitFor(60, TimeUnit.SECONDS)).isTrue();
    assertThat(keytool.exitValue())
        .as(new String(keytool.getInputStream().readAllBytes()))
        .isZero();
    KeyStore keys = KeyStore.getInstance("PKCS12");
    try (InputStream in = new FileInputStream(store.toFile())) {
      keys.load(in, pass);
    }
    KeyManagerFactory kmf = KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
    kmf.init(keys, pass);
    SSLContext serverTls = SSLContext.getInstance("TLS");
    serverTls.init(kmf.getKeyManagers(), null, null);
    KeyStore trust = KeyStore.getInstance(KeyStore.getDefaultType());
    trust.load(null, null);
    Certificate cert = keys.getCertificate("idp");
    trust.setCertificateEntry("idp", cert);
    TrustManagerFactory tmf =
        TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
    tmf.init(trust);
    SSLContext client = SSLContext.getInstance("TLS");
    client.init(null, tmf.getTrustManagers(), null);
    this.clientTls = client.getSocketFactory();
    server = HttpsServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
    server.setHttpsConfigurator(new HttpsConfigurator(serverTls));
    server.createContext(
        "/jwks.json",
        exchange -> {
          fetches.incrementAndGet();
          byte[] body = jwks.getBytes(StandardCharsets.UTF_8);
          exchange.getResponseHeaders().add("Content-Type", "application/json");
          exchange.sendResponseHeaders(200, body.length);
          exchange.getResponseBody().write(body);
          exchange.close();
        });
    server.start();
  }

  static RSAKey newKey(String kid) throws Exception {
    return new RSAKeyGenerator(2048).keyID(kid).generate();
  }

  /** Serves exactly the public halves of {@code keys} from now on. */
  void publish(RSAKey... keys) {
    jwks = new JWKSet(List.of(keys)).toPublicJWKSet().toString();
  }

  URI jwksUrl() {
    return URI.create("https://127.0.0.1:" + server.getAddress().getPort() + "/jwks.json");
  }

  SSLSocketFactory clientTls() {
    return clientTls;
  }

  /** The provider as lake is configured for it, with key-set timing short enough for tests. */
  JwtAuthenticator authenticator(URI jwksUrl) {
    return new JwtAuthenticator(
        JwtConfig.of(jwksUrl, ISSUER, AUDIENCE)
            .withKeySetTiming(java.time.Duration.ofSeconds(1), java.time.Duration.ofMillis(100)),
        java.util.Optional.of(clientTls));
  }

  /** Valid claims for {@code sub} in {@code tenant} with grant lake.tpch, for 10 minutes. */
  static JWTClaimsSet.Builder claims(String tenant, String sub) {
    Instant now = Instant.now();
    return new JWTClaimsSet.Builder()
        .issuer(ISSUER)
        .audience(AUDIENCE)
        .subject(sub)
        .issueTime(Date.from(now))
        .expirationTime(Date.from(now.plusSeconds(600)))
        .claim("tenant", tenant)
        .claim("lake_grants", List.of("lake.tpch"));
  }

  static String sign(RSAKey key, JWTClaimsSet claims) throws Exception {
    SignedJWT jwt =
        new SignedJWT(
            new JWSHeader.Builder(JWSAlgorithm.RS256).keyID(key.getKeyID()).build(), claims);
    jwt.sign(new RSASSASigner(key));
    return jwt.serialize();
  }

  static String sign(RSAKey key, UnaryOperator<JWTClaimsSet.Builder> claims) throws Exception {
    return sign(key, claims.apply(claims("initech", "peter")).build());
  }

  @Override
  public void close() {
    server.stop(0);
  }
}
