package dev.lake.frontdoor;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

class EngineOptionsTest {
  @CommandLine.Command(name = "t")
  static final class Cmd {
    @CommandLine.Mixin EngineOptions engine;
  }

  private static EngineOptions parse(String... args) {
    Cmd cmd = new Cmd();
    new CommandLine(cmd).parseArgs(args);
    return cmd.engine;
  }

  @Test
  void snapshotCache_isOffByDefault() {
    assertThat(parse().engineConfig(Path.of("/tmp/spill")).snapshotCacheBytes()).isZero();
  }

  @Test
  void snapshotCacheMb_setsTheEngineBound_andIsValidatedByTheEngineConfig() {
    assertThat(
            parse("--snapshot-cache-mb", "64")
                .engineConfig(Path.of("/tmp/spill"))
                .snapshotCacheBytes())
        .isEqualTo(64L << 20);
    assertThatThrownBy(
            () -> parse("--snapshot-cache-mb", "4096").engineConfig(Path.of("/tmp/spill")))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("snapshotCacheBytes");
  }
}
