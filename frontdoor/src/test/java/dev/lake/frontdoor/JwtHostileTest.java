package dev.lake.frontdoor;

import static dev.lake.frontdoor.TestLake.CAROL;
import static dev.lake.frontdoor.TestLake.bearer;
import static org.assertj.core.api.Assertions.assertThat;

import com.nimbusds.jose.JWSAlgorithm;
import com.nimbusds.jose.JWSHeader;
import com.nimbusds.jose.crypto.MACSigner;
import com.nimbusds.jose.jwk.RSAKey;
import com.nimbusds.jwt.PlainJWT;
import com.nimbusds.jwt.SignedJWT;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.Base64;
import java.util.Date;
import java.util.Optional;
import org.apache.arrow.flight.FlightRuntimeException;
import org.apache.arrow.flight.FlightStatusCode;
import org.apache.arrow.flight.FlightStream;
import org.apache.arrow.flight.Ticket;
import org.apache.arrow.flight.sql.FlightSqlClient;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.io.TempDir;

/**
 * JWT bearer identities against a real lake and a real (loopback HTTPS) key set: every forged,
 * stale or misdirected token is UNAUTHENTICATED with a reason, and after each another tenant's
 * never-seen statement (static token, tenant globex) still succeeds. Ordered: the key set rotates,
 * then its endpoint goes down.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class JwtHostileTest {
  @TempDir static Path dir;
  static JwtProvider provider;
  static TestLake lake;
  static FlightSqlClient client;
  static RSAKey current;
  static RSAKey first;

  @BeforeAll
  static void start() throws Exception {
    provider = new JwtProvider(dir);
    first = JwtProvider.newKey("k1");
    current = first;
    provider.publish(first);
    lake =
        TestLake.withAuthenticator(
            dir,
            statics ->
                new BearerAuthenticator(
                    Optional.of(statics), Optional.of(provider.authenticator(provider.jwksUrl()))));
    client = lake.client();
  }

  @AfterAll
  static void stop() throws Exception {
    client.close();
    lake.close();
    provider.close();
  }

  @AfterEach
  void anotherTenantStillQueries() throws Exception {
    HostileInputTest.assertFreshQuery(client, CAROL);
  }

  @Test
  @Order(1)
  void validJwt_queriesAsItsTenantAndSubject() throws Exception {
    // GIVEN a token of tenant initech signed by the published key
    String token = JwtProvider.sign(current, c -> c);
    // WHEN it runs a statement THEN it succeeds with the token's grants
    assertThat(count(token, "SELECT count(*) FROM lake.tpch.region")).isEqualTo(5);
  }

  @Test
  @Order(2)
  void expiredJwt_isUnauthenticated() throws Exception {
    Instant past = Instant.now().minusSeconds(600);
    String token =
        JwtProvider.sign(
            current, c -> c.issueTime(Date.from(past)).expirationTime(Date.from(past)));
    assertThat(refusal(token)).startsWith("JWT expired at ");
  }

  @Test
  @Order(3)
  void notYetValidJwt_isUnauthenticated() throws Exception {
    String token =
        JwtProvider.sign(current, c -> c.notBeforeTime(Date.from(Instant.now().plusSeconds(300))));
    assertThat(refusal(token)).startsWith("JWT is not valid before ");
  }

  @Test
  @Order(4)
  void jwtForAnotherAudience_isUnauthenticated() throws Exception {
    String token = JwtProvider.sign(current, c -> c.audience("another-service"));
    assertThat(refusal(token)).isEqualTo("JWT audience does not include lake's (--jwt-audience)");
  }

  @Test
  @Order(5)
  void jwtOfAnotherIssuer_isUnauthenticated() throws Exception {
    String token = JwtProvider.sign(current, c -> c.issuer("https://evil.example/"));
    assertThat(refusal(token)).isEqualTo("JWT issuer is not the one lake trusts (--jwt-issuer)");
  }

  @Test
  @Order(6)
  void jwtSignedByAnUnknownKey_isUnauthenticated() throws Exception {
    String token = JwtProvider.sign(JwtProvider.newKey("k-attacker"), c -> c);
    assertThat(refusal(token))
        .isEqualTo(
            "JWT is signed by a key the identity provider's key set does not hold (kid"
                + " k-attacker)");
  }

  @Test
  @Order(7)
  void unsecuredJwt_algNone_isUnauthenticated() throws Exception {
    String token = new PlainJWT(JwtProvider.claims("initech", "peter").build()).serialize();
    assertThat(refusal(token)).startsWith("JWT algorithm 'none' is not accepted");
  }

  @Test
  @Order(8)
  void hs256SignedWithTheRsaPublicKey_isUnauthenticated() throws Exception {
    // GIVEN the classic confusion attack: HMAC keyed with the provider's public key (PEM text)
    String pem =
        "-----BEGIN PUBLIC KEY-----\n"
            + Base64.getMimeEncoder().encodeToString(current.toPublicKey().getEncoded())
            + "\n-----END PUBLIC KEY-----\n";
    SignedJWT forged =
        new SignedJWT(
            new JWSHeader.Builder(JWSAlgorithm.HS256).keyID(current.getKeyID()).build(),
            JwtProvider.claims("initech", "peter").build());
    forged.sign(new MACSigner(pem.getBytes(StandardCharsets.US_ASCII)));
    assertThat(refusal(forged.serialize())).startsWith("JWT algorithm 'HS256' is not accepted");
  }

  @Test
  @Order(9)
  void jwtWithoutTenantClaim_isUnauthenticated() throws Exception {
    String token = JwtProvider.sign(current, c -> c.claim("tenant", null));
    assertThat(refusal(token))
        .isEqualTo("JWT claim 'tenant' must hold the tenant (1-64 of [A-Za-z0-9_-])");
  }

  @Test
  @Order(10)
  void rotatedKeySet_acceptsTheNewKey_andRefusesTheRemovedOne() throws Exception {
    // GIVEN a token of the current key works
    String old = JwtProvider.sign(first, c -> c);
    assertThat(count(old, "SELECT count(*) + 1 FROM lake.tpch.region")).isEqualTo(6);
    // WHEN the provider rotates: k2 published, k1 removed
    RSAKey next = JwtProvider.newKey("k2");
    provider.publish(next);
    current = next;
    // THEN a k2 token is accepted once the key set was fetched again (unknown kid, rate-limited)
    String fresh = JwtProvider.sign(next, c -> c.subject("michael"));
    assertThat(eventuallyCount(fresh, "SELECT count(*) + 2 FROM lake.tpch.region")).isEqualTo(7);
    // AND the removed k1's tokens are refused
    assertThat(refusal(old))
        .isEqualTo("JWT is signed by a key the identity provider's key set does not hold (kid k1)");
  }

  @Test
  @Order(11)
  void keySetEndpointDown_failsClosed_onceTheCachedSetExpires() throws Exception {
    // GIVEN the provider's key set endpoint stops answering
    provider.close();
    Thread.sleep(1_200); // the cached set (1 s in this test) expires
    // WHEN a token of a key it published arrives THEN lake knows no valid key and refuses it
    String token = JwtProvider.sign(current, c -> c.subject("samir"));
    assertThat(refusal(token))
        .isEqualTo(
            "No valid signing key is known: the identity provider's key set is unavailable; retry"
                + " later");
  }

  private static long count(String token, String sql) throws Exception {
    Ticket ticket = client.execute(sql, bearer(token)).getEndpoints().get(0).getTicket();
    try (FlightStream stream = client.getStream(ticket, bearer(token))) {
      assertThat(stream.next()).isTrue();
      return ((Number) stream.getRoot().getVector(0).getObject(0)).longValue();
    }
  }

  /** {@link #count}, retried for up to 5 s while the key set refresh is rate-limited. */
  private static long eventuallyCount(String token, String sql) throws Exception {
    long deadline = System.nanoTime() + Duration.ofSeconds(5).toNanos();
    while (true) {
      try {
        return count(token, sql);
      } catch (FlightRuntimeException e) {
        if (System.nanoTime() > deadline || e.status().code() != FlightStatusCode.UNAUTHENTICATED) {
          throw e;
        }
        Thread.sleep(50);
      }
    }
  }

  /** The UNAUTHENTICATED message a statement with {@code token} gets. */
  private static String refusal(String token) {
    FlightRuntimeException e =
        HostileInputTest.failure(() -> count(token, "SELECT count(*) FROM lake.tpch.nation"));
    assertThat(e.status().code()).as(e.getMessage()).isEqualTo(FlightStatusCode.UNAUTHENTICATED);
    return e.status().description();
  }
}
