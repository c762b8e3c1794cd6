package dev.lake.frontdoor;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.lake.core.ticket.TicketConfig;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class FrontDoorConfigTest {
  @Test
  void defaults_areLoopbackPlaintextWithBoundedLimits() {
    // WHEN
    FrontDoorConfig config = FrontDoorConfig.defaults();
    // THEN
    assertThat(config.host()).isEqualTo("127.0.0.1");
    assertThat(config.port()).isEqualTo(31337);
    assertThat(config.tlsEnabled()).isFalse();
    assertThat(config.trustedTlsProxy()).isFalse();
    assertThat(config.tickets()).isEqualTo(TicketConfig.defaults());
    assertThat(config.preparedTtl()).isEqualTo(Duration.ofHours(12));
    assertThat(config.maxConcurrentQueries()).isEqualTo(8);
    assertThat(config.maxConcurrentQueriesPerTenant()).isEqualTo(4);
    assertThat(config.maxConcurrentPartDownloads()).isEqualTo(16);
    assertThat(config.maxConcurrentPartDownloadsPerTenant()).isEqualTo(8);
    assertThat(config.queueWait()).isEqualTo(Duration.ofSeconds(30));
    assertThat(config.maxSqlBytes()).isEqualTo(256 * 1024);
    assertThat(config.maxInboundMessageBytes()).isEqualTo(16 * 1024 * 1024);
    assertThat(config.idleStreamTimeout()).isEqualTo(Duration.ofSeconds(60));
  }

  @Test
  void constructor_rejectsOutOfBoundsValues() {
    FrontDoorConfig d = FrontDoorConfig.defaults();
    assertThatThrownBy(() -> d.withListener("127.0.0.1", 70000))
        .hasMessage("port must be between 0 and 65535: 70000");
    assertThatThrownBy(() -> d.withLimits(0, 1, Duration.ZERO))
        .hasMessage("maxConcurrentQueries must be between 1 and 1024: 0");
    assertThatThrownBy(() -> d.withLimits(4, 5, Duration.ZERO))
        .hasMessage("maxConcurrentQueriesPerTenant must be between 1 and 4: 5");
    assertThatThrownBy(() -> d.withPartDownloadLimits(0, 1))
        .hasMessage("maxConcurrentPartDownloads must be between 1 and 1024: 0");
    assertThatThrownBy(() -> d.withPartDownloadLimits(4, 5))
        .hasMessage("maxConcurrentPartDownloadsPerTenant must be between 1 and 4: 5");
    assertThatThrownBy(() -> d.withLimits(4, 2, Duration.ofHours(1)))
        .hasMessage("queueWait must be between PT0S and PT10M: PT1H");
    assertThatThrownBy(() -> d.withIdleStreamTimeout(Duration.ofMillis(10)))
        .hasMessage("idleStreamTimeout must be between PT1S and PT1H: PT0.01S");
    assertThatThrownBy(() -> d.withTls(Optional.of(Path.of("cert.pem")), Optional.empty()))
        .hasMessage("TLS needs both a certificate and a private key");
  }
}
