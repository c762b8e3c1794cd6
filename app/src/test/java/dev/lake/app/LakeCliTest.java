package dev.lake.app;

import static org.assertj.core.api.Assertions.assertThat;

import dev.lake.core.TableRef;
import dev.lake.core.local.FileRegistry;
import dev.lake.core.local.LocalKeyRing;
import dev.lake.core.testing.Poll;
import dev.lake.durable.WorkerConfig;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

class LakeCliTest {
  @TempDir Path dir;

  @Test
  void local_printsReady_andAnswersJdbc_untilStopped() throws Exception {
    // GIVEN `lake local` started in-process on a free port, with load bounds set by flags and
    // by a LAKE_* variable
    StringWriter output = new StringWriter();
    PrintWriter out = new PrintWriter(output, true);
    Thread cli =
        new Thread(
            () ->
                LakeCli.commandLine(
                        Map.of(
                            "LAKE_MAX_CONCURRENT_QUERIES_PER_TENANT",
                            "3",
                            "LAKE_MAX_CONCURRENT_PART_DOWNLOADS_PER_TENANT",
                            "5"))
                    .setOut(out)
                    .execute(
                        "local",
                        "--port",
                        "0",
                        "--data-dir",
                        dir.toString(),
                        "--flight-threads",
                        "8",
                        "--max-concurrent-queries",
                        "6",
                        "--max-concurrent-part-downloads",
                        "12"));
    cli.start();
    // WHEN it reports ready
    Poll.until(
        Duration.ofSeconds(120),
        () -> {
          assertThat(cli.isAlive()).as(output.toString()).isTrue();
          return output.toString().contains("ready");
        },
        "lake local reports ready");
    String printed = output.toString();
    assertThat(printed).contains("ready");
    // AND the running server took the bounds from the flags and the variable
    assertThat(printed)
        .contains(
            "limits: 6 queries (3 per tenant, wait PT30S), 12 part downloads (5 per tenant), 8"
                + " Flight threads (queue 0), idle stream PT1M");
    Matcher url = Pattern.compile("JDBC URL: (\\S+)").matcher(printed);
    assertThat(url.find()).isTrue();
    assertThat(url.group(1))
        .startsWith("jdbc:arrow-flight-sql://127.0.0.1:")
        .contains("/?useEncryption=false&token=");
    // THEN the printed JDBC URL answers the README's first query
    try (Connection c = DriverManager.getConnection(url.group(1));
        Statement s = c.createStatement();
        ResultSet rs =
            s.executeQuery(
                "SELECT l_returnflag, count(*) FROM lake.tpch.lineitem GROUP BY 1 ORDER BY 1")) {
      int groups = 0;
      while (rs.next()) {
        groups++;
      }
      assertThat(groups).isEqualTo(3);
    }
    // AND prepared statements run in the engine processes (local's default isolation): one
    // without placeholders reports none, one with a placeholder binds it
    try (Connection c = DriverManager.getConnection(url.group(1));
        PreparedStatement plain =
            c.prepareStatement(
                "SELECT row(n_nationkey, n_name) AS r FROM lake.tpch.nation WHERE n_nationkey = 0");
        PreparedStatement bound =
            c.prepareStatement("SELECT count(*) FROM lake.tpch.nation WHERE n_regionkey = ?")) {
      assertThat(plain.getParameterMetaData().getParameterCount()).isZero();
      try (ResultSet rs = plain.executeQuery()) {
        assertThat(rs.next()).isTrue();
        assertThat(rs.getString(1)).isEqualTo("{\"f1\":0,\"f2\":\"ALGERIA\"}");
      }
      assertThat(bound.getParameterMetaData().getParameterCount()).isEqualTo(1);
      bound.setLong(1, 1);
      try (ResultSet rs = bound.executeQuery()) {
        assertThat(rs.next()).isTrue();
        assertThat(rs.getLong(1)).isEqualTo(5L);
      }
    }
    // AND it stops cleanly
    cli.interrupt();
    cli.join(TimeUnit.SECONDS.toMillis(30));
    assertThat(cli.isAlive()).isFalse();
    assertThat(Files.readString(dir.resolve("principals.json"))).doesNotContain("lake_");
  }

  @Test
  void local_refusesAnOutOfBoundsLimit_inOneLine_beforeGeneratingData() {
    StringWriter err = new StringWriter();
    CommandLine cli = LakeCli.commandLine(Map.of("LAKE_FLIGHT_QUEUE", "-1"));
    cli.setErr(new PrintWriter(err));
    int code = cli.execute("local", "--port", "0", "--data-dir", dir.toString());
    assertThat(code).isEqualTo(2);
    assertThat(err.toString().trim())
        .isEqualTo("lake: flightQueue must be between 0 and 65536: -1");
    assertThat(dir.resolve("tables")).doesNotExist();
    StringWriter err2 = new StringWriter();
    CommandLine cli2 = LakeCli.commandLine(Map.of());
    cli2.setErr(new PrintWriter(err2));
    assertThat(cli2.execute("local", "--data-dir", dir.toString(), "--max-list-items", "3"))
        .isEqualTo(2);
    assertThat(err2.toString().trim())
        .isEqualTo("lake: maxListItems must be between 16 and 100000: 3");
    StringWriter err3 = new StringWriter();
    CommandLine cli3 = LakeCli.commandLine(Map.of("LAKE_DURABLE_MAX_QUEUED_PER_TENANT", "0"));
    cli3.setErr(new PrintWriter(err3));
    assertThat(cli3.execute("local", "--data-dir", dir.toString())).isEqualTo(2);
    assertThat(err3.toString().trim())
        .isEqualTo("lake: maxQueuedPerTenant must be between 1 and 100000: 0");
    assertThat(dir.resolve("tables")).doesNotExist();
  }

  @Test
  void local_takesTheWorkerLease_fromTheFlagsAndVariablesOfServeAndWorker() {
    // GIVEN `lake local` with one worker bound as a variable and the other as a flag
    CommandLine cli = LakeCli.commandLine(Map.of("LAKE_WORKER_MAX_RUNNING", "5"));
    // WHEN its arguments are parsed
    cli.parseArgs("local", "--data-dir", dir.toString(), "--worker-max-running-per-tenant", "2");
    CommandLine local = cli.getSubcommands().get("local");
    // THEN its in-process workers take both, every other worker setting keeps its default
    WorkerConfig worker =
        ((LocalCommand) local.getCommand()).durableConfig().orElseThrow().worker();
    assertThat(worker.maxRunning()).isEqualTo(5);
    assertThat(worker.maxRunningPerTenant()).isEqualTo(2);
    assertThat(
            worker
                .withMaxRunning(WorkerConfig.DEFAULT_MAX_RUNNING)
                .withMaxRunningPerTenant(WorkerConfig.DEFAULT_MAX_RUNNING_PER_TENANT))
        .isEqualTo(LocalLake.localDurable().orElseThrow().worker());
    // AND the flags are the very options of serve and worker (one definition)
    CommandLine root = LakeCli.commandLine(Map.of());
    for (String flag :
        List.of(
            "--worker-max-running",
            "--worker-max-running-per-tenant",
            "--worker-split-rows",
            "--worker-max-fan-out")) {
      String described = String.join(" ", local.getCommandSpec().findOption(flag).description());
      assertThat(
              String.join(
                  " ",
                  root.getSubcommands()
                      .get("serve")
                      .getCommandSpec()
                      .findOption(flag)
                      .description()))
          .isEqualTo(described);
      assertThat(
              String.join(
                  " ",
                  WorkerMain.commandLine(Map.of()).getCommandSpec().findOption(flag).description()))
          .isEqualTo(described);
    }
    // AND an out-of-bounds value is refused in one line before any data is generated
    StringWriter err = new StringWriter();
    CommandLine bad = LakeCli.commandLine(Map.of("LAKE_WORKER_MAX_RUNNING_PER_TENANT", "0"));
    bad.setErr(new PrintWriter(err));
    assertThat(bad.execute("local", "--port", "0", "--data-dir", dir.toString())).isEqualTo(2);
    assertThat(err.toString().trim())
        .isEqualTo("lake: maxRunningPerTenant must be between 1 and 10000: 0");
    assertThat(dir.resolve("tables")).doesNotExist();
    // AND --no-durable has no durable tier to bound
    CommandLine off = LakeCli.commandLine(Map.of());
    off.parseArgs("local", "--no-durable", "--worker-max-running", "3");
    assertThat(((LocalCommand) off.getSubcommands().get("local").getCommand()).durableConfig())
        .isEmpty();
  }

  @Test
  void tableAndKeysCommands_editRegistryAndKeyRing() throws Exception {
    Path registry = dir.resolve("registry.json");
    Path keyRing = dir.resolve("keyring.json");
    LocalKeyRing.loadOrCreate(keyRing);
    StringWriter output = new StringWriter();
    CommandLine cli = LakeCli.commandLine().setOut(new PrintWriter(output, true));
    Path dataset = dir.resolve("t.lance");
    try (org.apache.arrow.memory.RootAllocator allocator =
        new org.apache.arrow.memory.RootAllocator()) {
      var schema =
          new org.apache.arrow.vector.types.pojo.Schema(
              List.of(
                  org.apache.arrow.vector.types.pojo.Field.nullable(
                      "x", new org.apache.arrow.vector.types.pojo.ArrowType.Int(64, true))));
      dev.lake.lance.LanceDatasets.write(
          dataset.toString(),
          new dev.lake.core.EmptyArrowReader(allocator, schema),
          allocator,
          false);
    }
    // a location outside the data locations (by default: the registry file's directory) is
    // refused naming it, nothing written (exit 2)
    assertThat(
            cli.execute(
                "table", "register", "--registry", registry.toString(), "lake.s.t", "/data/t"))
        .isEqualTo(2);
    assertThat(new FileRegistry(registry).list()).isEmpty();
    assertThat(
            cli.execute(
                "table",
                "register",
                "--registry",
                registry.toString(),
                "lake.s.t",
                dataset.toString()))
        .isZero();
    assertThat(new FileRegistry(registry).find(TableRef.parse("lake.s.t")))
        .hasValueSatisfying(e -> assertThat(e.format()).isEqualTo("lance"));
    // a format no installed module owns, or an option Lance does not take, is refused (exit 2)
    String[] delta = {
      "table",
      "register",
      "--registry",
      registry.toString(),
      "--table-format",
      "delta",
      "lake.s.u",
      dir.resolve("u").toString()
    };
    assertThat(cli.execute(delta)).isEqualTo(2);
    String[] option = {
      "table",
      "register",
      "--registry",
      registry.toString(),
      "--table-option",
      "k=v",
      "lake.s.u",
      dir.resolve("u").toString()
    };
    assertThat(cli.execute(option)).isEqualTo(2);
    // a location that does not open as a Lance dataset (a missing one, a CSV file) is refused
    StringWriter errors = new StringWriter();
    cli.setErr(new PrintWriter(errors, true));
    assertThat(
            cli.execute(
                "table",
                "register",
                "--registry",
                registry.toString(),
                "lake.s.u",
                dir.resolve("missing.lance").toString()))
        .isEqualTo(2);
    Path csv = dir.resolve("u.csv");
    java.nio.file.Files.writeString(csv, "a\n1\n");
    assertThat(
            cli.execute(
                "table", "register", "--registry", registry.toString(), "lake.s.u", csv.toString()))
        .isEqualTo(2);
    assertThat(errors.toString())
        .contains("lake: " + dir.resolve("missing.lance") + " does not open as a Lance dataset (")
        .contains(
            "lake: "
                + csv
                + " is a file, not a Lance dataset (a directory with _versions); bin/lake table"
                + " import NAME FILE turns Parquet, CSV, JSON or Arrow files into a Lance table");
    assertThat(new FileRegistry(registry).find(TableRef.parse("lake.s.u"))).isEmpty();
    assertThat(cli.execute("table", "unregister", "--registry", registry.toString(), "lake.s.t"))
        .isZero();
    assertThat(new FileRegistry(registry).list()).isEmpty();
    assertThat(cli.execute("keys", "rotate", "--key-ring", keyRing.toString())).isZero();
    assertThat(LocalKeyRing.load(keyRing).keyIds()).hasSize(2);
    assertThat(output.toString())
        .contains("registered lake.s.t as lance")
        .contains("unregistered lake.s.t");
  }

  /** Runs {@code LakeCli.main} in a child JVM on this test's classpath: real exit code, output. */
  private static Process main(String... args) throws Exception {
    List<String> command = new ArrayList<>();
    command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
    command.add("-cp");
    command.add(System.getProperty("java.class.path"));
    command.add(LakeCli.class.getName());
    command.addAll(List.of(args));
    return new ProcessBuilder(command).redirectErrorStream(true).start();
  }

  private static String finish(Process process) throws Exception {
    assertThat(process.waitFor(60, TimeUnit.SECONDS)).as("the CLI exits").isTrue();
    return new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
  }

  @Test
  void main_exitsWith2_andOneLine_whenConfigurationIsWrong() throws Exception {
    // WHEN the real entry point registers a name outside the lake catalog
    Process process =
        main(
            "table",
            "register",
            "--registry",
            dir.resolve("registry.json").toString(),
            "other.s.t",
            "/data/t");
    String printed = finish(process);
    // THEN it exits 2 with one line naming the mistake, and no stack trace
    assertThat(process.exitValue()).as(printed).isEqualTo(2);
    assertThat(printed.strip())
        .startsWith("lake: ")
        .contains("lake.<namespace>.<table>")
        .doesNotContain("\tat ");
  }

  @Test
  void main_exitsWith2_onAnUnknownFlag_and0_onSuccess() throws Exception {
    // WHEN the real entry point gets an unknown flag THEN picocli's usage error exits 2
    Process unknown = main("keys", "rotate", "--no-such-flag");
    String usage = finish(unknown);
    assertThat(unknown.exitValue()).as(usage).isEqualTo(2);
    assertThat(usage).contains("Unknown option: '--no-such-flag'");
    // AND a valid command exits 0
    Path keyRing = dir.resolve("keyring.json");
    LocalKeyRing.loadOrCreate(keyRing);
    Process rotate = main("keys", "rotate", "--key-ring", keyRing.toString());
    String printed = finish(rotate);
    assertThat(rotate.exitValue()).as(printed).isZero();
    assertThat(LocalKeyRing.load(keyRing).keyIds()).hasSize(2);
  }
}
