package dev.lake.app;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.lake.core.TableRef;
import dev.lake.iceberg.IcebergConfig;
import dev.lake.iceberg.IcebergFilesConfig;
import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

/** One definition of every setting: flag {@code --foo-bar} ⇔ variable {@code LAKE_FOO_BAR}. */
class EnvDefaultsTest {
  private static WorkerMain parse(Map<String, String> env, String... args) {
    WorkerMain options = new WorkerMain();
    EnvDefaults.install(new CommandLine(options), env, "t").parseArgs(args);
    return options;
  }

  /** A setting the formats' flags (added through {@link FormatFlags}) give the worker. */
  private static <T> Optional<T> formatSetting(WorkerMain w, Class<T> type) {
    return FormatFlags.settings(w.spec).stream()
        .filter(type::isInstance)
        .map(type::cast)
        .findFirst();
  }

  @Test
  void variable_isTheFlagInUpperSnakeCase_withTheLakePrefix() {
    assertThat(EnvDefaults.variable("--registry-table")).isEqualTo("LAKE_REGISTRY_TABLE");
    assertThat(EnvDefaults.variable("--worker-max-attempts")).isEqualTo("LAKE_WORKER_MAX_ATTEMPTS");
    assertThatThrownBy(() -> EnvDefaults.variable("-p")).hasMessage("not a long option name: -p");
  }

  @Test
  void everyOptionOfTheWorker_isReadFromItsVariable() {
    // GIVEN only environment variables, as the Lambda has
    Map<String, String> env =
        Map.of(
            "LAKE_REGISTRY_TABLE", "lake-registry",
            "LAKE_REGISTRY_FRESHNESS_MS", "250",
            "LAKE_AWS_ENDPOINT", "http://127.0.0.1:5000",
            "LAKE_RESULT_BUCKET", "b",
            "LAKE_JOB_TABLE", "jobs",
            "LAKE_JOB_QUEUE_URL", "http://q",
            "LAKE_KMS_KEY_ID", "k",
            "LAKE_WORKER_MAX_ATTEMPTS", "7",
            "LAKE_SNAPSHOT_CACHE_MB", "64",
            "LAKE_RESULT_PREFIX", "r");
    // WHEN the worker's options are parsed without arguments
    WorkerMain w = parse(env);
    // THEN each setting comes from its variable
    assertThat(w.registry.source())
        .isEqualTo(
            new RegistrySource(
                Optional.empty(), Optional.of("lake-registry"), Duration.ofMillis(250)));
    assertThat(w.aws.durable().endpoint()).contains(URI.create("http://127.0.0.1:5000"));
    assertThat(w.aws.durable().bucket()).isEqualTo("b");
    assertThat(w.worker.config().maxAttempts()).isEqualTo(7);
    assertThat(w.engine.snapshotCacheBytes()).isEqualTo(64L << 20);
    assertThat(w.aws.resultLayout().prefix()).isEqualTo("r");
  }

  @Test
  void aFlag_winsOverItsVariable_andTheVariableOverTheDefault() {
    WorkerMain w =
        parse(
            Map.of("LAKE_WORKER_MAX_ATTEMPTS", "7", "LAKE_REGISTRY", "/r.json"),
            "--worker-max-attempts",
            "2");
    assertThat(w.worker.config().maxAttempts()).isEqualTo(2);
    assertThat(w.registry.source().file()).contains(java.nio.file.Path.of("/r.json"));
    assertThat(parse(Map.of()).worker.config().lease()).isEqualTo(Duration.ofSeconds(60));
  }

  @Test
  void iceberg_readsRestAllowAndWarehouse_fromTheFrontDoorsVariables() {
    WorkerMain w =
        parse(
            Map.of(
                "LAKE_ICEBERG_REST", "http://127.0.0.1:8181/",
                "LAKE_ICEBERG_ALLOW", "tpch",
                "LAKE_ICEBERG_WAREHOUSE", "wh"));
    IcebergConfig config = formatSetting(w, IcebergConfig.class).orElseThrow();
    assertThat(config.uri()).isEqualTo(URI.create("http://127.0.0.1:8181/"));
    assertThat(config.warehouse()).isEqualTo(Optional.of("wh"));
    assertThat(config.allowlist().allows(TableRef.parse("iceberg.tpch.lineitem"))).isTrue();
    assertThat(formatSetting(parse(Map.of()), IcebergConfig.class)).isEmpty();
  }

  @Test
  void icebergFiles_directReadsOnWithA4GiBCache_byDefault_andSetByVariables() {
    // GIVEN no variables THEN direct reads are on, in a private directory, bounded at 4 GiB
    IcebergFilesConfig defaults =
        formatSetting(parse(Map.of()), IcebergFilesConfig.class).orElseThrow();
    assertThat(defaults).isEqualTo(IcebergFilesConfig.defaults());
    // GIVEN the deployment's variables THEN they reach the config
    IcebergFilesConfig set =
        formatSetting(
                parse(
                    Map.of(
                        "LAKE_ICEBERG_DIRECT_READS", "false",
                        "LAKE_ICEBERG_FILE_CACHE_DIR", "/tmp/lake-iceberg-files",
                        "LAKE_ICEBERG_FILE_CACHE_MB", "1024")),
                IcebergFilesConfig.class)
            .orElseThrow();
    assertThat(set.direct()).isFalse();
    assertThat(set.cacheDirectory()).contains(Path.of("/tmp/lake-iceberg-files"));
    assertThat(set.cacheBytes()).isEqualTo(1024L << 20);
    // AND a bound too small is refused naming the setting and the value
    assertThatThrownBy(
            () -> FormatFlags.settings(parse(Map.of("LAKE_ICEBERG_FILE_CACHE_MB", "1")).spec))
        .hasMessageContaining("cacheBytes")
        .hasMessageContaining("1048576");
  }

  @Test
  void missingSettings_nameBothTheFlagAndTheVariable() {
    assertThatThrownBy(() -> parse(Map.of()).registry.source())
        .hasMessageContaining("--registry-table")
        .hasMessageContaining("LAKE_REGISTRY_TABLE");
    assertThatThrownBy(() -> parse(Map.of()).aws.durable())
        .hasMessageContaining("--job-queue-url")
        .hasMessageContaining("LAKE_JOB_QUEUE_URL");
    assertThatThrownBy(() -> FormatFlags.settings(parse(Map.of("LAKE_ICEBERG_ALLOW", "tpch")).spec))
        .hasMessage(
            "--iceberg-allow/--iceberg-warehouse/--iceberg-oauth2-credential need --iceberg-rest");
  }

  @Test
  void workerCommand_reportsAConfigurationMistake_inOneLine_withExitCode2() {
    java.io.StringWriter err = new java.io.StringWriter();
    CommandLine cli = WorkerMain.commandLine(Map.of("LAKE_REGISTRY", "/tmp/r.json"));
    cli.setErr(new java.io.PrintWriter(err));
    assertThat(cli.execute()).isEqualTo(2);
    assertThat(err.toString().trim()).startsWith("lake worker: the AWS durable tier needs");
  }
}
