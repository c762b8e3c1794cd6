package dev.lake.app;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Path;
import java.time.Clock;
import org.junit.jupiter.api.Test;

class LocalLakeOptionsTest {
  @Test
  void options_defaultEverythingButTheDataDirectory_likeBinLakeLocal() {
    // WHEN only the data directory is named
    LocalLake.Options options = LocalLake.options(Path.of(".lake")).build();

    // THEN the rest are bin/lake local's defaults
    assertThat(options.host()).isEqualTo("127.0.0.1");
    assertThat(options.port()).isEqualTo(31337);
    assertThat(options.token()).isEmpty();
    assertThat(options.scale()).isEqualTo(0.01);
    assertThat(options.clock()).isEqualTo(Clock.systemUTC());
    assertThat(options.formatSettings()).isEmpty();
    assertThat(options.durable()).isEqualTo(LocalLake.localDurable());
    assertThat(options.engine()).isEmpty();
    assertThat(options.engineConfig(Path.of("/tmp/spill")).snapshotCacheBytes()).isZero();
  }

  @Test
  void options_rejectAScaleOutOfRange_namingTheValue() {
    assertThatThrownBy(() -> LocalLake.options(Path.of(".lake")).scale(11).build())
        .hasMessage("scale must be in (0, 10]: 11.0");
  }
}
