package dev.lake.app;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.lake.engine.EngineConfig;
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
  void cli_reportsAConfigurationMistake_inOneLine_withExitCode2() {
    java.io.StringWriter err = new java.io.StringWriter();
    CommandLine cli = LakeCli.commandLine();
    cli.setErr(new java.io.PrintWriter(err));
    int code = cli.execute("local", "--iceberg-rest", "http://127.0.0.1:1");
    assertThat(code).isEqualTo(2);
    assertThat(err.toString().trim())
        .isEqualTo(
            "lake: --iceberg-rest needs --iceberg-allow: name the namespaces or tables lake may"
                + " read");
  }

  @Test
  void engineIsolation_isProcessByDefault_andInProcessOnlyWhenAsked() {
    var defaults = parse().sandboxConfig();
    assertThat(defaults).isEqualTo(dev.lake.sandbox.SandboxConfig.defaults());
    assertThat(defaults.isolation()).isEqualTo(dev.lake.sandbox.SandboxConfig.Isolation.PROCESS);
    assertThat(defaults.grace()).isEqualTo(java.time.Duration.ofSeconds(2));
    assertThat(defaults.ceilingFor(1L << 30)).isEqualTo((2L << 30) + (512L << 20));
    var custom =
        parse(
                "--engine-isolation",
                "in-process",
                "--engine-process-ceiling-mb",
                "1024",
                "--engine-grace",
                "PT1S",
                "--engine-start-timeout",
                "PT20S",
                "--engine-spare",
                "false")
            .sandboxConfig();
    assertThat(custom.isolation()).isEqualTo(dev.lake.sandbox.SandboxConfig.Isolation.IN_PROCESS);
    assertThat(custom.ceilingFor(1L << 30)).isEqualTo(1L << 30);
    assertThat(custom.grace()).isEqualTo(java.time.Duration.ofSeconds(1));
    assertThat(custom.spare()).isFalse();
    assertThat(custom.startTimeout()).isEqualTo(java.time.Duration.ofSeconds(20));
    assertThatThrownBy(() -> parse("--engine-start-timeout", "PT0S").sandboxConfig())
        .hasMessageContaining("engineStartTimeout");
    assertThatThrownBy(() -> parse("--engine-isolation", "thread").sandboxConfig())
        .hasMessage("--engine-isolation must be process or in-process: thread");
    assertThatThrownBy(() -> parse("--engine-grace", "PT5M").sandboxConfig())
        .hasMessageContaining("engineGrace");
  }

  @Test
  void snapshotCache_isOnByDefault_withAQuarterOfTheEngineMemory_andZeroTurnsItOff() {
    var defaults = parse().engineConfig(Path.of("/tmp/spill"));
    assertThat(defaults.snapshotCacheBytes()).isEqualTo(defaults.memoryLimitBytes() / 4);
    assertThat(
            parse("--snapshot-cache-mb", "0")
                .engineConfig(Path.of("/tmp/spill"))
                .snapshotCacheBytes())
        .isZero();
  }

  @Test
  void queryTimeouts_defaultToTheEngineDefaults_andAreValidatedByTheEngineConfig() {
    var defaults = parse().engineConfig(Path.of("/tmp/spill"));
    assertThat(defaults.queryTimeout()).isEqualTo(java.time.Duration.ofMinutes(5));
    assertThat(defaults.maxQueryTimeout()).isEqualTo(java.time.Duration.ofHours(1));
    assertThat(defaults.durableQueryTimeout()).isEqualTo(java.time.Duration.ofHours(6));
    assertThat(parse("--query-timeout", "PT30S").engineConfig(Path.of("/tmp/spill")).queryTimeout())
        .isEqualTo(java.time.Duration.ofSeconds(30));
    assertThatThrownBy(() -> parse("--query-timeout", "PT2H").engineConfig(Path.of("/tmp/spill")))
        .hasMessage("queryTimeout must be between PT1S and PT1H: PT2H");
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

  @Test
  void engineMemoryMb_setsTheMemoryLimit_andTheDefaultCacheShare_andIsValidated() {
    // GIVEN no flag THEN the engine default: a quarter of the memory the JVM reports
    assertThat(parse().engineConfig(Path.of("/tmp/spill")).memoryLimitBytes())
        .isEqualTo(EngineConfig.defaultMemoryBytes(EngineConfig.totalMemoryBytes()));
    // WHEN the engine gets 4 GiB THEN DuckDB's limit follows, and the cache keeps its quarter
    var big = parse("--engine-memory-mb", "4096").engineConfig(Path.of("/tmp/spill"));
    assertThat(big.memoryLimitBytes()).isEqualTo(4L << 30);
    assertThat(big.snapshotCacheBytes()).isEqualTo(1L << 30);
    assertThat(big.poolMemoryBytes()).isEqualTo(1L << 30);
    // AND a smaller engine than this machine's default keeps a quarter of its own memory as cache
    var small = parse("--engine-memory-mb", "256").engineConfig(Path.of("/tmp/spill"));
    assertThat(small.memoryLimitBytes()).isEqualTo(256L << 20);
    assertThat(small.snapshotCacheBytes()).isEqualTo(64L << 20);
    // AND a value below the floor names the setting and the bad value
    assertThatThrownBy(() -> parse("--engine-memory-mb", "32").engineConfig(Path.of("/tmp/spill")))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("memoryLimitBytes")
        .hasMessageContaining("33554432");
  }
}
