package dev.lake.engine;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Path;
import org.junit.jupiter.api.Test;

class EngineConfigTest {
  private static final Path TMP = Path.of("/tmp/lake-spill");
  private static final long GIB = 1L << 30;

  @Test
  void defaults_areWithinBounds() {
    // GIVEN a 4 GiB machine or container
    EngineConfig c = EngineConfig.defaults(TMP, 4 * GIB);
    assertThat(c.memoryLimitBytes()).isEqualTo(1L << 30);
    assertThat(c.threads()).isBetween(1, 8);
    assertThat(c.scanParallelism()).isEqualTo(c.threads());
    assertThat(c.maxTempBytes()).isEqualTo(4L << 30);
    assertThat(c.batchSize()).isEqualTo(65_536);
    assertThat(c.tempDirectory()).isEqualTo(TMP);
    assertThat(c.snapshotCacheBytes()).isEqualTo(c.memoryLimitBytes() / 4);
    assertThat(c.queryTimeout()).isEqualTo(java.time.Duration.ofMinutes(5));
    assertThat(c.maxQueryTimeout()).isEqualTo(java.time.Duration.ofHours(1));
    assertThat(c.durableQueryTimeout()).isEqualTo(java.time.Duration.ofHours(6));
    assertThat(c.memoryPools()).isEqualTo(4);
    assertThat(c.poolMemoryBytes()).isEqualTo(256L << 20);
    assertThat(c.poolTempBytes()).isEqualTo(1L << 30);
    assertThat(c.poolSnapshotCacheBytes()).isEqualTo(64L << 20);
    assertThat(c.memoryPoolWait()).isEqualTo(java.time.Duration.ofSeconds(30));
  }

  @Test
  void defaultMemory_isAQuarterOfTheReportedMemory_within256MiBAnd32GiB() {
    // GIVEN machines or containers of 1 GiB, 23.5 GiB (this bench machine kind) and 1 TiB
    assertThat(EngineConfig.defaultMemoryBytes(GIB)).isEqualTo(256L << 20);
    assertThat(EngineConfig.defaultMemoryBytes(24_064L << 20)).isEqualTo(6_016L << 20);
    assertThat(EngineConfig.defaultMemoryBytes(1024 * GIB)).isEqualTo(32 * GIB);
    // THEN every derived default is a valid engine: four pools, a quarter of it as cache
    for (long total : new long[] {0, GIB, 24_064L << 20, 1024 * GIB}) {
      EngineConfig c = EngineConfig.defaults(TMP, total);
      assertThat(c.memoryLimitBytes()).isEqualTo(EngineConfig.defaultMemoryBytes(total));
      assertThat(c.memoryPools()).isEqualTo(4);
      assertThat(c.snapshotCacheBytes()).isEqualTo(c.memoryLimitBytes() / 4);
    }
    // AND the one-argument defaults use the memory the JVM reports for this process
    assertThat(EngineConfig.totalMemoryBytes()).isPositive();
    assertThat(EngineConfig.defaults(TMP))
        .isEqualTo(EngineConfig.defaults(TMP, EngineConfig.totalMemoryBytes()));
  }

  @Test
  void memoryPools_leaveEachPoolAtLeast64MiB_andOldConstructorsShareOnePool() {
    EngineConfig c = EngineConfig.defaults(TMP, 4 * GIB);
    assertThat(c.withMemoryPools(16).poolMemoryBytes()).isEqualTo(64L << 20);
    assertThatThrownBy(() -> c.withMemoryPools(17))
        .hasMessage("memoryPools must be between 1 and 16: 17");
    assertThatThrownBy(() -> c.withMemoryPools(0))
        .hasMessage("memoryPools must be between 1 and 16: 0");
    assertThatThrownBy(() -> c.withMemoryPoolWait(java.time.Duration.ofMinutes(11)))
        .hasMessage("memoryPoolWait must be between PT0S and PT10M: PT11M");
    assertThat(new EngineConfig(1L << 30, 2, TMP, 0, 4096, 2).memoryPools()).isEqualTo(1);
  }

  @Test
  void timeouts_areBounded_andTheInteractiveOneByItsMaximum() {
    EngineConfig c = EngineConfig.defaults(TMP);
    java.time.Duration minute = java.time.Duration.ofMinutes(1);
    assertThatThrownBy(() -> c.withTimeouts(java.time.Duration.ofHours(2), minute, minute))
        .hasMessage("queryTimeout must be between PT1S and PT1M: PT2H");
    assertThatThrownBy(() -> c.withTimeouts(minute, minute, java.time.Duration.ZERO))
        .hasMessage("durableQueryTimeout must be between PT1S and PT168H: PT0S");
    assertThat(c.withTimeouts(minute, minute, minute).queryTimeout()).isEqualTo(minute);
  }

  @Test
  void sixArgumentConstructor_keepsTheSnapshotCacheOff() {
    EngineConfig c = new EngineConfig(1L << 30, 2, TMP, 0, 4096, 2);
    assertThat(c.snapshotCacheBytes()).isZero();
    assertThat(c.withSnapshotCacheBytes(256L << 20).snapshotCacheBytes()).isEqualTo(256L << 20);
  }

  @Test
  void constructor_rejects_outOfBoundValues() {
    assertThatThrownBy(() -> new EngineConfig(1L << 20, 2, TMP, 0, 4096, 2))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("memoryLimitBytes must be between 67108864 and 1099511627776: 1048576");
    assertThatThrownBy(() -> new EngineConfig(1L << 30, 0, TMP, 0, 4096, 2))
        .hasMessage("threads must be between 1 and 256: 0");
    assertThatThrownBy(() -> new EngineConfig(1L << 30, 2, TMP, -1, 4096, 2))
        .hasMessage("maxTempBytes must be between 0 and 17592186044416: -1");
    assertThatThrownBy(() -> new EngineConfig(1L << 30, 2, TMP, 0, 10, 2))
        .hasMessage("batchSize must be between 1024 and 1048576: 10");
    assertThatThrownBy(() -> new EngineConfig(1L << 30, 2, TMP, 0, 4096, 65))
        .hasMessage("scanParallelism must be between 1 and 64: 65");
    assertThatThrownBy(() -> new EngineConfig(1L << 30, 2, TMP, 0, 4096, 2, -1))
        .hasMessage("snapshotCacheBytes must be between 0 and 536870912: -1");
    assertThatThrownBy(() -> new EngineConfig(1L << 30, 2, TMP, 0, 4096, 2, (1L << 29) + 1))
        .hasMessage("snapshotCacheBytes must be between 0 and 536870912: 536870913");
    assertThatThrownBy(() -> new EngineConfig(1L << 30, 2, null, 0, 4096, 2))
        .isInstanceOf(NullPointerException.class)
        .hasMessage("tempDirectory is null");
  }
}
