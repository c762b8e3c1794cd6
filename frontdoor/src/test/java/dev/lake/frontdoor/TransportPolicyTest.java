package dev.lake.frontdoor;

import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Path;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class TransportPolicyTest {
  private final FrontDoorConfig defaults = FrontDoorConfig.defaults();

  @Test
  void check_allowsPlaintext_onLoopback() {
    assertThatCode(() -> TransportPolicy.check(defaults.withListener("127.0.0.1", 0)))
        .doesNotThrowAnyException();
    assertThatCode(() -> TransportPolicy.check(defaults.withListener("localhost", 0)))
        .doesNotThrowAnyException();
    assertThatCode(() -> TransportPolicy.check(defaults.withListener("::1", 0)))
        .doesNotThrowAnyException();
  }

  @Test
  void check_refusesPlaintext_onNonLoopbackAddress() {
    // GIVEN a wildcard listener without TLS and without a declared proxy
    FrontDoorConfig config = defaults.withListener("0.0.0.0", 0);
    // WHEN / THEN
    assertThatThrownBy(() -> TransportPolicy.check(config))
        .isInstanceOf(IllegalStateException.class)
        .hasMessage(
            "Refusing to listen in plaintext on non-loopback address 0.0.0.0: configure"
                + " --tls-cert and --tls-key, or declare a trusted TLS-terminating proxy with"
                + " --trusted-tls-proxy");
  }

  @Test
  void check_allowsNonLoopback_withTlsOrTrustedProxy() {
    FrontDoorConfig wide = defaults.withListener("0.0.0.0", 0);
    assertThatCode(
            () ->
                TransportPolicy.check(
                    wide.withTls(Optional.of(Path.of("c.pem")), Optional.of(Path.of("k.pem")))))
        .doesNotThrowAnyException();
    assertThatCode(() -> TransportPolicy.check(wide.withTrustedTlsProxy(true)))
        .doesNotThrowAnyException();
  }

  @Test
  void isLoopback_isFalse_forUnresolvableHost() {
    assertThatThrownBy(
            () -> TransportPolicy.check(defaults.withListener("no-such-host.invalid", 0)))
        .isInstanceOf(IllegalStateException.class);
  }

  @Test
  void checkMetrics_refusesEveryNonLoopbackAddress_evenBehindADeclaredProxy() {
    // GIVEN the anonymous Prometheus endpoint THEN loopback only; no proxy or TLS exemption exists
    assertThatCode(() -> TransportPolicy.checkMetrics("127.0.0.1")).doesNotThrowAnyException();
    assertThatCode(() -> TransportPolicy.checkMetrics("localhost")).doesNotThrowAnyException();
    assertThatThrownBy(() -> TransportPolicy.checkMetrics("0.0.0.0"))
        .isInstanceOf(IllegalStateException.class)
        .hasMessage(
            "Refusing to serve metrics on non-loopback address 0.0.0.0: the Prometheus endpoint"
                + " is anonymous plaintext; scrape it on 127.0.0.1 from the same host or task (e.g."
                + " a collector sidecar), or use the CloudWatch metrics");
  }
}
