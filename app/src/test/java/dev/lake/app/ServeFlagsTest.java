package dev.lake.app;

import dev.lake.app.CommandFlagsTest.Case;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

/**
 * Every flag that {@code bin/lake serve} lists in its help takes effect and is held to its
 * documented bounds, by CommandFlagsTest's walk over what {@code serve} builds from its flags
 * ({@code LakeCli.Serve.settings()}: every config record, nothing read, started or listened on).
 */
class ServeFlagsTest {
  /** What every case needs: principals, a ticket-key ring and a registry (unless it names one). */
  private static final List<String> BASE =
      List.of(
          "--principals-file", "/tmp/lake-flags-principals.json",
          "--key-ring", "/tmp/lake-flags-keys.json",
          "--registry", "/tmp/lake-flags-registry.json");

  /** The AWS durable tier's four resources, but for {@code except} (the flag under test). */
  private static List<String> durableAws(String except) {
    List<String> aws = new ArrayList<>();
    if (!except.equals("--durable")) {
      aws.addAll(List.of("--durable", "aws"));
    }
    Map.of(
            "--result-bucket", "b",
            "--job-table", "t",
            "--job-queue-url", "http://127.0.0.1:1/q",
            "--kms-key-id", "k")
        .forEach(
            (flag, value) -> {
              if (!flag.equals(except)) {
                aws.addAll(List.of(flag, value));
              }
            });
    return aws;
  }

  private static Map<String, Case> serveCases() {
    Map<String, Case> c = CommandFlagsTest.localCases();
    for (String localOnly :
        List.of("--data-dir", "--token", "--grant", "--scale", "--durable", "--port")) {
      c.remove(localOnly);
    }
    c.put("--port", Case.of("--port", "40001", "70000"));
    c.put("--host", Case.of("--host", "127.0.0.2", null));
    c.put("--principals-file", Case.of("--principals-file", "/tmp/lake-flags-other.json", null));
    c.put("--principals-secret", Case.of("--principals-secret", "lake-principals", " "));
    c.put("--key-ring", Case.of("--key-ring", "/tmp/lake-flags-other-keys.json", null));
    c.put(
        "--tls-cert",
        Case.with(List.of("--tls-key", "/tmp/lake-flags.key"), "--tls-cert", "/tmp/c.pem", null));
    c.put(
        "--tls-key",
        Case.with(List.of("--tls-cert", "/tmp/lake-flags.pem"), "--tls-key", "/tmp/k.pem", null));
    c.put("--trusted-tls-proxy", Case.flag("--trusted-tls-proxy"));
    CommandFlagsTest.registryAndWorkerCases(c);
    c.put("--durable", Case.with(durableAws("--durable"), "--durable", "aws", "gcp"));
    c.put("--durable-workers", Case.of("--durable-workers", "2", "-1"));
    c.put("--aws-region", Case.with(durableAws(""), "--aws-region", "eu-west-1", null));
    c.put(
        "--aws-endpoint", Case.with(durableAws(""), "--aws-endpoint", "http://127.0.0.1:1", null));
    c.put("--aws-call-timeout-ms", Case.with(durableAws(""), "--aws-call-timeout-ms", "5000", "0"));
    for (String resource : List.of("--result-bucket", "--job-table", "--kms-key-id")) {
      c.put(resource, Case.with(durableAws(resource), resource, "other", null));
    }
    c.put(
        "--job-queue-url",
        Case.with(durableAws("--job-queue-url"), "--job-queue-url", "http://127.0.0.1:1/q2", null));
    c.put("--key-ring-prefix", Case.with(durableAws(""), "--key-ring-prefix", "keys-2", null));
    c.put("--result-prefix", Case.of("--result-prefix", "results-2", null));
    // the endpoint is anonymous plaintext: loopback only
    c.put(
        "--metrics-host",
        Case.with(List.of("--metrics-port", "9464"), "--metrics-host", "127.0.0.2", "0.0.0.0"));
    c.put("--metrics-port", Case.of("--metrics-port", "9464", "70000"));
    return c;
  }

  /** What {@code serve} builds from {@code args} plus the base flags they do not name. */
  private static List<Object> serveSettings(List<String> args) {
    List<String> all = new ArrayList<>(List.of("serve"));
    for (int i = 0; i < BASE.size(); i += 2) {
      boolean named =
          args.contains(BASE.get(i))
              || (BASE.get(i).equals("--registry") && args.contains("--registry-table"))
              || (BASE.get(i).equals("--principals-file") && args.contains("--principals-secret"));
      if (!named) {
        all.addAll(BASE.subList(i, i + 2));
      }
    }
    all.addAll(args);
    CommandLine root = LakeCli.commandLine(Map.of());
    root.parseArgs(all.toArray(String[]::new));
    LakeCli.Serve serve = (LakeCli.Serve) root.getSubcommands().get("serve").getCommand();
    return List.of(serve.settings());
  }

  @Test
  void serve_everyListedFlagTakesEffect_andIsHeldToItsBounds() {
    CommandFlagsTest.walk(
        CommandFlagsTest.listed(LakeCli.commandLine(Map.of()).getSubcommands().get("serve")),
        serveCases(),
        ServeFlagsTest::serveSettings);
  }
}
