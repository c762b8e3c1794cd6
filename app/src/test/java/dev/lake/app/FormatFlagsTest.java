package dev.lake.app;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.lake.iceberg.IcebergConfig;
import dev.lake.iceberg.IcebergFilesConfig;
import java.util.Map;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

/** Every installed format's flags on lake's process commands, without the commands naming one. */
class FormatFlagsTest {
  @Test
  void transform_addsEveryInstalledFormatsOptions_asAMixinNamedForItsTag() {
    // GIVEN a command built with the transformer
    CommandLine worker = WorkerMain.commandLine(Map.of());
    // THEN the Iceberg module's flags are its options, contributed by the format
    assertThat(worker.getCommandSpec().mixins()).containsKey("format:iceberg");
    assertThat(worker.getCommandSpec().findOption("--iceberg-rest")).isNotNull();
    assertThat(worker.getCommandSpec().findOption("--iceberg-file-cache-mb").defaultValue())
        .isEqualTo("4096");
  }

  @Test
  void fromEnvironment_readsTheFormatsSettings_fromTheirLakeVariables() {
    // GIVEN no variables THEN only the formats' defaults (no REST catalog); the test classpath also
    // installs the front door's test format, whose defaults may follow
    assertThat(FormatFlags.fromEnvironment(Map.of()))
        .contains(IcebergFilesConfig.defaults())
        .doesNotHaveAnyElementsOfTypes(IcebergConfig.class);
    // GIVEN the variables of a federated deployment
    // THEN the settings a process started with them gets
    assertThat(
            FormatFlags.fromEnvironment(
                Map.of("LAKE_ICEBERG_REST", "http://127.0.0.1:8181", "LAKE_ICEBERG_ALLOW", "demo")))
        .containsSubsequence(
            IcebergConfig.fromFlags("http://127.0.0.1:8181", null, "demo"),
            IcebergFilesConfig.defaults());
    // AND a bad value is refused naming the setting and the value
    assertThatThrownBy(() -> FormatFlags.fromEnvironment(Map.of("LAKE_ICEBERG_FILE_CACHE_MB", "1")))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("cacheBytes")
        .hasMessageContaining("1048576");
  }
}
