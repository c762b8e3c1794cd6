package dev.lake.client;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class LakeClientConfigTest {
  @Test
  void defaults_areTheLocalServerWithoutTokenOrTls() {
    LakeClientConfig c = LakeClientConfig.defaults();

    assertThat(c.url()).isEqualTo(URI.create("grpc+tcp://127.0.0.1:31337"));
    assertThat(c.token()).isEmpty();
    assertThat(c.caFile()).isEmpty();
    assertThat(c.timeout()).isEmpty();
    assertThat(c.tls()).isFalse();
    assertThat(c.loopback()).isTrue();
  }

  @Test
  void rejects_badUrlsTokensAndCaFiles_namingTheValue() {
    assertThatThrownBy(() -> LakeClientConfig.of("http://h:1", "t"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("http://h:1");
    assertThatThrownBy(() -> LakeClientConfig.of("grpc+tcp://host", "t"))
        .hasMessageContaining("needs a host and a port");
    assertThatThrownBy(() -> LakeClientConfig.of("grpc+tcp://h:1", " "))
        .hasMessageContaining("token");
    assertThatThrownBy(
            () ->
                new LakeClientConfig(
                    URI.create("grpc+tcp://h:1"), Optional.empty(), Optional.of(Path.of("ca.pem"))))
        .hasMessageContaining("grpc+tls");
    assertThatThrownBy(
            () ->
                new LakeClientConfig(
                    URI.create("grpc+tls://h:1"),
                    Optional.empty(),
                    Optional.of(Path.of("/no/such/ca.pem"))))
        .hasMessageContaining("/no/such/ca.pem");
  }

  @Test
  void timeout_isBetweenOneMillisecondAnd24Hours_andSurvivesAnotherUrl() {
    LakeClientConfig c = LakeClientConfig.defaults();

    assertThat(c.withTimeout(Duration.ofMillis(1)).timeout()).contains(Duration.ofMillis(1));
    assertThat(c.withTimeout(Duration.ofHours(24)).withUrl(URI.create("grpc://h:1")).timeout())
        .contains(Duration.ofHours(24));
    assertThatThrownBy(() -> c.withTimeout(Duration.ofNanos(999_999)))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("PT0.000999999S");
    assertThatThrownBy(() -> c.withTimeout(Duration.ofHours(25)))
        .hasMessage("timeout must be between 1 ms and 24 h: PT25H");
  }

  @Test
  void tlsUrl_isEncryptedAndRemoteHostIsNotLoopback() {
    LakeClientConfig c = LakeClientConfig.of("grpc+tls://lake.example.com:443", "t");

    assertThat(c.tls()).isTrue();
    assertThat(c.loopback()).isFalse();
  }
}
