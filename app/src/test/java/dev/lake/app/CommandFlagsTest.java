package dev.lake.app;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import dev.lake.frontdoor.FrontDoorConfig;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.net.ServerSocket;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.Function;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;
import picocli.CommandLine.Model.OptionSpec;

/**
 * Every flag that {@code bin/lake local} and {@code bin/lake worker} (and, in ServeFlagsTest,
 * {@code serve}) list in their help takes effect and is held to its documented bounds: the walk
 * parses each listed flag with an in-bounds value and asserts that the settings the command builds
 * (the config records, nothing started) differ from its defaults, and with an out-of-bounds value
 * (where the help states bounds) that building them fails naming the setting. A flag added to
 * either command without a case here fails the walk.
 */
class CommandFlagsTest {
  static final List<String> JWT =
      List.of(
          "--jwt-jwks-url", "https://idp.example/jwks",
          "--jwt-issuer", "https://idp.example",
          "--jwt-audience", "lake");
  static final List<String> ICEBERG =
      List.of("--iceberg-rest", "http://127.0.0.1:1", "--iceberg-allow", "demo");

  /** A flag's in-bounds value, out-of-bounds value (null: none stated), and companion flags. */
  record Case(List<String> good, List<String> bad, List<String> with) {
    static Case of(String flag, String good, String bad) {
      return new Case(List.of(flag, good), bad == null ? null : List.of(flag, bad), List.of());
    }

    static Case with(List<String> companions, String flag, String good, String bad) {
      return new Case(List.of(flag, good), bad == null ? null : List.of(flag, bad), companions);
    }

    static Case flag(String... args) {
      return new Case(List.of(args), null, List.of());
    }
  }

  @TempDir Path dir;

  static Map<String, Case> engineCases() {
    Map<String, Case> c = new HashMap<>();
    c.put("--spill-dir", Case.of("--spill-dir", "/tmp/lake-flags-spill", null));
    c.put("--engine-memory-mb", Case.of("--engine-memory-mb", "512", "1"));
    c.put("--snapshot-cache-mb", Case.of("--snapshot-cache-mb", "32", "100000000"));
    c.put("--engine-memory-pools", Case.of("--engine-memory-pools", "2", "99"));
    c.put("--engine-isolation", Case.of("--engine-isolation", "in-process", "thread"));
    c.put("--engine-process-ceiling-mb", Case.of("--engine-process-ceiling-mb", "1024", "1"));
    c.put("--engine-process-heap-mb", Case.of("--engine-process-heap-mb", "128", "1"));
    c.put("--engine-grace", Case.of("--engine-grace", "PT1S", "PT5M"));
    c.put("--engine-planning-timeout", Case.of("--engine-planning-timeout", "PT10S", "PT1H"));
    c.put("--engine-start-timeout", Case.of("--engine-start-timeout", "PT20S", "PT11M"));
    c.put("--engine-spare", Case.of("--engine-spare", "false", null));
    c.put("--query-timeout", Case.of("--query-timeout", "PT30S", "PT2H"));
    c.put("--max-query-timeout", Case.of("--max-query-timeout", "PT2H", "PT25H"));
    c.put("--durable-query-timeout", Case.of("--durable-query-timeout", "PT1H", "P8D"));
    c.put(
        "--iceberg-rest", // plaintext to a catalog off loopback is refused
        Case.with(
            List.of("--iceberg-allow", "demo"),
            "--iceberg-rest",
            "http://127.0.0.1:1",
            "http://catalog.example:8181"));
    c.put(
        "--iceberg-allow",
        Case.with(
            List.of("--iceberg-rest", "http://127.0.0.1:1"), "--iceberg-allow", "demo", null));
    c.put("--iceberg-warehouse", Case.with(ICEBERG, "--iceberg-warehouse", "w", null));
    c.put("--iceberg-direct-reads", Case.flag("--no-iceberg-direct-reads"));
    c.put(
        "--iceberg-file-cache-dir",
        Case.with(ICEBERG, "--iceberg-file-cache-dir", "/tmp/lake-flags-cache", null));
    c.put("--iceberg-file-cache-mb", Case.with(ICEBERG, "--iceberg-file-cache-mb", "64", "-1"));
    List<String> oauth2 = new ArrayList<>(ICEBERG);
    oauth2.addAll(List.of("--iceberg-oauth2-credential", "client:secret"));
    c.put("--iceberg-oauth2-credential", Case.with(ICEBERG, oauth2.get(4), oauth2.get(5), null));
    c.put(
        "--iceberg-oauth2-server-uri",
        Case.with(oauth2, "--iceberg-oauth2-server-uri", "https://idp/token", "http://idp/token"));
    c.put("--iceberg-oauth2-scope", Case.with(oauth2, "--iceberg-oauth2-scope", "catalog", null));
    for (String timeout : List.of("--iceberg-connect-timeout", "--iceberg-read-timeout")) {
      c.put(timeout, Case.with(ICEBERG, timeout, "PT9S", "PT6M"));
    }
    c.put("--iceberg-max-retries", Case.with(ICEBERG, "--iceberg-max-retries", "5", "11"));
    c.put(
        "--iceberg-cache-max-tables", Case.with(ICEBERG, "--iceberg-cache-max-tables", "99", "0"));
    c.put("--iceberg-cache-fresh", Case.with(ICEBERG, "--iceberg-cache-fresh", "PT9S", "PT2H"));
    c.put("--iceberg-cache-stale", Case.with(ICEBERG, "--iceberg-cache-stale", "PT9M", "PT2H"));
    // where table data may live: an S3 prefix must end in '/'
    c.put("--data-locations", Case.of("--data-locations", "s3://lake-data/t/", "s3://lake-data/t"));
    // the test-only format of frontdoor's test jar, installed in app's tests
    c.put("--count-offset", Case.of("--count-offset", "5", null));
    // local and worker run durable jobs
    c.put("--worker-split-rows", Case.of("--worker-split-rows", "100000", "10"));
    c.put("--worker-max-fan-out", Case.of("--worker-max-fan-out", "4", "0"));
    return c;
  }

  static Map<String, Case> localCases() {
    Map<String, Case> c = engineCases();
    c.put("--budget-window", Case.of("--budget-window", "PT2H", "PT1S"));
    c.put("--budget-scanned-mb", Case.of("--budget-scanned-mb", "100", "-1"));
    c.put("--budget-result-mb", Case.of("--budget-result-mb", "100", "-1"));
    c.put("--budget-egress-mb", Case.of("--budget-egress-mb", "100", "-1"));
    c.put("--host", Case.of("--host", "127.0.0.2", null));
    c.put("--port", Case.of("--port", "40001", "70000"));
    c.put("--data-dir", Case.of("--data-dir", "/tmp/lake-flags-data", null));
    c.put("--token", Case.of("--token", "another-token", null));
    c.put("--grant", Case.of("--grant", "lake.bi", "not a grant"));
    c.put("--scale", Case.of("--scale", "0.5", "11"));
    c.put("--durable", Case.flag("--no-durable"));
    c.put("--durable-max-queued-per-tenant", Case.of("--durable-max-queued-per-tenant", "7", "0"));
    c.put("--worker-max-running", Case.of("--worker-max-running", "5", "0"));
    c.put("--worker-max-running-per-tenant", Case.of("--worker-max-running-per-tenant", "2", "0"));
    c.put("--flight-threads", Case.of("--flight-threads", "8", "1"));
    c.put("--flight-queue", Case.of("--flight-queue", "16", "-1"));
    c.put("--max-concurrent-queries", Case.of("--max-concurrent-queries", "16", "0"));
    c.put(
        "--max-concurrent-queries-per-tenant",
        Case.of("--max-concurrent-queries-per-tenant", "2", "0"));
    c.put("--max-concurrent-part-downloads", Case.of("--max-concurrent-part-downloads", "8", "0"));
    c.put(
        "--max-concurrent-part-downloads-per-tenant",
        Case.of("--max-concurrent-part-downloads-per-tenant", "2", "0"));
    c.put("--queue-wait", Case.of("--queue-wait", "PT5S", "PT11M"));
    c.put("--idle-stream-timeout", Case.of("--idle-stream-timeout", "PT30S", "PT2H"));
    c.put("--max-sql-chars", Case.of("--max-sql-chars", "10000", "-1"));
    c.put("--max-nesting-depth", Case.of("--max-nesting-depth", "16", "3"));
    c.put("--max-list-items", Case.of("--max-list-items", "100", "3"));
    c.put("--sql-parser-connections", Case.of("--sql-parser-connections", "1", "0"));
    c.put("--sql-parser-memory-mb", Case.of("--sql-parser-memory-mb", "64", "1"));
    c.put(
        "--jwt-jwks-url",
        Case.with(
            List.of("--jwt-issuer", "i", "--jwt-audience", "a"),
            "--jwt-jwks-url",
            "https://idp.example/jwks",
            null));
    c.put(
        "--jwt-issuer",
        Case.with(
            List.of("--jwt-jwks-url", "https://idp.example/jwks", "--jwt-audience", "a"),
            "--jwt-issuer",
            "i",
            null));
    c.put(
        "--jwt-audience",
        Case.with(
            List.of("--jwt-jwks-url", "https://idp.example/jwks", "--jwt-issuer", "i"),
            "--jwt-audience",
            "a",
            null));
    c.put("--jwt-tenant-claim", Case.with(JWT, "--jwt-tenant-claim", "org", null));
    c.put("--jwt-grants-claim", Case.with(JWT, "--jwt-grants-claim", "g", null));
    c.put("--jwt-clock-skew", Case.with(JWT, "--jwt-clock-skew", "PT10S", "PT6M"));
    c.put("--jwt-jwks-cache-ttl", Case.with(JWT, "--jwt-jwks-cache-ttl", "PT10M", "P2D"));
    c.put(
        "--jwt-jwks-min-refresh-interval",
        Case.with(JWT, "--jwt-jwks-min-refresh-interval", "PT1M", null));
    c.put("--principals-reload-interval", Case.of("--principals-reload-interval", "PT30S", "PT2H"));
    return c;
  }

  /** The registry flags and the worker settings, shared by {@code worker} and {@code serve}. */
  static void registryAndWorkerCases(Map<String, Case> c) {
    c.put("--registry", Case.of("--registry", "/tmp/lake-flags-registry-2.json", null));
    c.put("--registry-table", Case.flag("--registry-table", "lake-registry-2"));
    c.put("--registry-freshness-ms", Case.of("--registry-freshness-ms", "5000", "-1"));
    c.put("--worker-lease-seconds", Case.of("--worker-lease-seconds", "90", "0"));
    c.put("--worker-renew-seconds", Case.of("--worker-renew-seconds", "10", "0"));
    c.put("--worker-max-execution-seconds", Case.of("--worker-max-execution-seconds", "600", "0"));
    c.put("--worker-lambda-margin-seconds", Case.of("--worker-lambda-margin-seconds", "30", "-1"));
    c.put("--worker-max-attempts", Case.of("--worker-max-attempts", "4", "0"));
    c.put("--worker-retry-delay-seconds", Case.of("--worker-retry-delay-seconds", "7", "-1"));
  }

  private static Map<String, Case> workerCases() {
    Map<String, Case> c = engineCases();
    registryAndWorkerCases(c);
    c.put("--aws-region", Case.of("--aws-region", "eu-west-1", null));
    c.put("--aws-endpoint", Case.of("--aws-endpoint", "http://127.0.0.1:1", null));
    c.put("--aws-call-timeout-ms", Case.of("--aws-call-timeout-ms", "5000", "0"));
    c.put("--result-bucket", Case.of("--result-bucket", "other-bucket", null));
    c.put("--job-table", Case.of("--job-table", "other-jobs", null));
    c.put("--job-queue-url", Case.of("--job-queue-url", "http://127.0.0.1:1/q2", null));
    c.put("--kms-key-id", Case.of("--kms-key-id", "other-key", null));
    c.put("--key-ring-prefix", Case.of("--key-ring-prefix", "keys-2", null));
    c.put("--result-prefix", Case.of("--result-prefix", "results-2", null));
    c.put("--worker-threads", Case.of("--worker-threads", "3", "0"));
    c.put("--worker-max-running", Case.of("--worker-max-running", "5", "0"));
    c.put("--worker-max-running-per-tenant", Case.of("--worker-max-running-per-tenant", "2", "0"));
    return c;
  }

  /** What {@code local} builds from its flags: every config record, nothing started. */
  private static List<Object> localSettings(List<String> args) {
    CommandLine root = LakeCli.commandLine(Map.of());
    List<String> all = new ArrayList<>(List.of("local"));
    all.addAll(args);
    root.parseArgs(all.toArray(String[]::new));
    LocalCommand local = (LocalCommand) root.getSubcommands().get("local").getCommand();
    local.limits.validate();
    return List.of(
        local.options(),
        local.limits.flightExecutor(),
        local.limits.applyTo(FrontDoorConfig.defaults()),
        local.limits.admission());
  }

  private static final List<String> WORKER_BASE =
      List.of(
          "--result-bucket",
          "b",
          "--job-table",
          "t",
          "--job-queue-url",
          "http://127.0.0.1:1/q",
          "--kms-key-id",
          "k");

  /** What {@code worker} builds from its flags (a registry file unless the case names one). */
  private static List<Object> workerSettings(List<String> args) {
    List<String> all = new ArrayList<>();
    for (int i = 0; i < WORKER_BASE.size(); i += 2) {
      if (!args.contains(WORKER_BASE.get(i))) {
        all.addAll(WORKER_BASE.subList(i, i + 2));
      }
    }
    if (!args.contains("--registry") && !args.contains("--registry-table")) {
      all.addAll(List.of("--registry", "/tmp/lake-flags-registry.json"));
    }
    all.addAll(args);
    CommandLine cli = WorkerMain.commandLine(Map.of());
    cli.parseArgs(all.toArray(String[]::new));
    return List.of(((WorkerMain) cli.getCommand()).settings());
  }

  static Set<String> listed(CommandLine command) {
    Set<String> flags = new TreeSet<>();
    for (OptionSpec o : command.getCommandSpec().options()) {
      if (!o.usageHelp() && !o.versionHelp()) {
        flags.add(o.longestName());
      }
    }
    return flags;
  }

  static void walk(
      Set<String> listed, Map<String, Case> cases, Function<List<String>, List<Object>> build) {
    assertThat(cases.keySet()).as("a case for every listed flag").isEqualTo(listed);
    for (Map.Entry<String, Case> e : cases.entrySet()) {
      Case c = e.getValue();
      List<String> good = new ArrayList<>(c.with());
      good.addAll(c.good());
      List<Object> defaults = defaults(build, c.with());
      assertThat(build.apply(good)).as("%s takes effect", good).isNotEqualTo(defaults);
      if (c.bad() != null) {
        List<String> bad = new ArrayList<>(c.with());
        bad.addAll(c.bad());
        assertThat(catchThrowable(() -> build.apply(bad)))
            .as("%s is refused", bad)
            .isInstanceOfAny(
                IllegalArgumentException.class,
                IllegalStateException.class, // the transport rule's refusals
                dev.lake.core.LakeException.class,
                CommandLine.ParameterException.class);
      }
    }
  }

  /** The settings of the companion flags alone, or of none when those need the flag under test. */
  private static List<Object> defaults(
      Function<List<String>, List<Object>> build, List<String> companions) {
    try {
      return build.apply(companions);
    } catch (IllegalArgumentException e) {
      return build.apply(List.of());
    }
  }

  @Test
  void local_everyListedFlagTakesEffect_andIsHeldToItsBounds() {
    walk(
        listed(LakeCli.commandLine(Map.of()).getSubcommands().get("local")),
        localCases(),
        CommandFlagsTest::localSettings);
  }

  @Test
  void worker_everyListedFlagTakesEffect_andIsHeldToItsBounds() {
    walk(listed(WorkerMain.commandLine(Map.of())), workerCases(), CommandFlagsTest::workerSettings);
  }

  @Test
  void local_refusesTooManyPools_inOneLine_beforeGeneratingData() {
    StringWriter err = new StringWriter();
    CommandLine cli = LakeCli.commandLine(Map.of());
    cli.setErr(new PrintWriter(err));

    int code = cli.execute("local", "--data-dir", dir.toString(), "--engine-memory-pools", "99");

    assertThat(code).isEqualTo(2);
    assertThat(err.toString().lines()).hasSize(1);
    assertThat(err.toString()).startsWith("lake: memoryPools must be between 1 and ");
    assertThat(dir.resolve("tables")).doesNotExist();
  }

  @Test
  void local_onATakenPort_saysSoInOneLine_beforeGeneratingData() throws Exception {
    try (ServerSocket taken = new ServerSocket(0)) {
      int port = taken.getLocalPort();
      StringWriter err = new StringWriter();
      CommandLine cli = LakeCli.commandLine(Map.of());
      cli.setErr(new PrintWriter(err));

      int code =
          cli.execute("local", "--data-dir", dir.toString(), "--port", Integer.toString(port));

      assertThat(code).isEqualTo(2);
      assertThat(err.toString().lines()).hasSize(1);
      assertThat(err.toString())
          .startsWith("lake: --port " + port + ": cannot listen on 127.0.0.1:" + port + " (")
          .contains("pass another --port");
      assertThat(dir.resolve("tables")).doesNotExist();
    }
  }

  @Test
  void help_listsEveryCommandOfBinLake() {
    StringWriter out = new StringWriter();
    CommandLine cli = LakeCli.commandLine(Map.of());
    cli.setOut(new PrintWriter(out));

    assertThat(cli.execute("--help")).isZero();
    assertThat(cli.execute("help", "local")).isZero();

    for (String command :
        List.of(
            "local",
            "aws-local",
            "serve",
            "table",
            "keys",
            "principals",
            "sql",
            "submit",
            "status",
            "fetch",
            "cancel",
            "worker",
            "iceberg-demo",
            "bench",
            "loadtest",
            "cdk")) {
      assertThat(out.toString()).contains("\n  " + command + " ");
    }
    assertThat(out.toString()).contains("Usage: lake local");
    assertThat(WorkerMain.commandLine(Map.of()).getUsageMessage()).startsWith("Usage: lake worker");
  }
}
