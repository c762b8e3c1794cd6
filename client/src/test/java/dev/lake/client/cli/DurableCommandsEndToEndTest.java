package dev.lake.client.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.lake.app.ClientTestLake;
import dev.lake.client.LakeClient;
import dev.lake.client.LakeClientConfig;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Durable queries from the shell: {@code sql --durable}, {@code submit}, {@code status}, {@code
 * fetch} (also killed mid-download and resumed), {@code cancel}, and the handles that no longer
 * work. The lake writes parts of at most 10,000 rows, so lineitem (60,175 rows) has 7 parts.
 */
class DurableCommandsEndToEndTest {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final String LINEITEM = "SELECT * FROM lake.tpch.lineitem";

  @TempDir static Path dir;
  static ClientTestLake lake;

  @BeforeAll
  static void start() {
    lake = ClientTestLake.start(dir.resolve("lake"), 10_000);
  }

  @AfterAll
  static void stop() {
    lake.close();
  }

  private static Map<String, String> user() {
    return Map.of("LAKE_URL", lake.url(), "LAKE_DATA_DIR", lake.dataDir().toString());
  }

  private static String submit(String sql) {
    Cli.Result r = Cli.run(dir, user(), "submit", "-e", sql);
    assertThat(r.stderr()).isEmpty();
    assertThat(r.exit()).isZero();
    assertThat(r.stdout()).startsWith("lkq1.").endsWith("\n");
    return r.stdout().strip();
  }

  private static JsonNode status(String handle) throws Exception {
    Cli.Result r = Cli.run(dir, user(), "status", handle);
    assertThat(r.exit()).as(r.stderr()).isZero();
    return JSON.readTree(r.stdout());
  }

  @Test
  void sqlDurable_resultOfSeveralParts_printsEveryRowInOrder() {
    Cli.Result r =
        Cli.run(
            dir,
            user(),
            "sql",
            "--durable",
            "-e",
            "SELECT l_orderkey, l_linenumber FROM lake.tpch.lineitem ORDER BY 1, 2");

    assertThat(r.exit()).as(r.stderr()).isZero();
    List<String> lines = r.stdout().lines().toList();
    assertThat(lines).hasSize(60_176).startsWith("l_orderkey,l_linenumber", "1,1", "1,2");
    List<long[]> keys =
        lines.stream()
            .skip(1)
            .map(l -> l.split(","))
            .map(a -> new long[] {Long.parseLong(a[0]), Long.parseLong(a[1])})
            .toList();
    assertThat(keys)
        .isSortedAccordingTo(
            java.util.Comparator.<long[]>comparingLong(k -> k[0]).thenComparingLong(k -> k[1]));
  }

  @Test
  void submitThenStatus_reportsStatePartsRowsBytesAndExpiry() throws Exception {
    String handle = submit(LINEITEM);

    // the fetch waits for the query; afterwards the status is final
    Path out = dir.resolve("status-check.arrow");
    assertThat(Cli.run(dir, user(), "fetch", handle, "--output", out.toString()).exit()).isZero();
    JsonNode status = status(handle);

    assertThat(status.get("state").asText()).isEqualTo("SUCCEEDED");
    assertThat(status.get("progress").asDouble()).isEqualTo(1.0);
    assertThat(status.get("rows").asLong()).isEqualTo(60_175);
    assertThat(status.get("parts").asInt()).isEqualTo(7);
    assertThat(status.get("bytes").asLong()).isPositive();
    assertThat(java.time.Instant.parse(status.get("expiresAt").asText()))
        .isBetween(
            java.time.Instant.now().plus(Duration.ofHours(23)),
            java.time.Instant.now().plus(Duration.ofHours(25)));
  }

  @Test
  void fetch_killedMidDownload_resumesAndWritesTheSameFile() throws Exception {
    // GIVEN a finished query of 7 parts, and a reference download of it
    String handle = submit("SELECT * FROM lake.tpch.lineitem WHERE l_linenumber <= 7");
    Path reference = dir.resolve("reference.arrow");
    assertThat(Cli.run(dir, user(), "fetch", handle, "--output", reference.toString()).exit())
        .isZero();
    long total = status(handle).get("bytes").asLong();

    // WHEN a fetch through a network that stalls at 40% of the bytes is killed
    Path target = dir.resolve("resumed.arrow");
    Path parts = dir.resolve("resumed.arrow.parts");
    try (StallingProxy proxy = new StallingProxy(lake.port(), total * 2 / 5)) {
      Cli.Running fetch =
          Cli.start(
              dir,
              user(),
              "fetch",
              handle,
              "--url",
              proxy.url(),
              "--parallel",
              "1",
              "--output",
              target.toString());
      assertThat(proxy.stalled().await(120, TimeUnit.SECONDS)).isTrue();
      fetch.process().destroyForcibly();
      assertThat(fetch.process().waitFor(60, TimeUnit.SECONDS)).isTrue();
    }
    List<String> downloaded = names(parts, ".arrow");
    assertThat(target).doesNotExist();
    assertThat(downloaded).isNotEmpty().hasSizeLessThan(7);

    // THEN running it again fetches only the missing parts and writes the identical file
    Cli.Result again = Cli.run(dir, user(), "fetch", handle, "--output", target.toString());
    assertThat(again.exit()).as(again.stderr()).isZero();
    assertThat(again.stderr())
        .isEqualTo("resumed: " + downloaded.size() + " of 7 parts were already downloaded\n");
    assertThat(Files.mismatch(target, reference)).isEqualTo(-1);
    assertThat(parts).doesNotExist();
  }

  @Test
  void cancel_runningQuery_isCancelledAndStatusSaysSo() throws Exception {
    // GIVEN a query that runs for many minutes (9e10 row combinations)
    String handle =
        submit(
            "SELECT count(*) FROM lake.tpch.lineitem a, lake.tpch.lineitem b, lake.tpch.nation c"
                + " WHERE a.l_orderkey + b.l_orderkey + c.n_nationkey = -1");

    // WHEN it is cancelled
    Cli.Result cancel = Cli.run(dir, user(), "cancel", handle);

    // THEN the command says so and the status is CANCELLED
    assertThat(cancel.exit()).as(cancel.stderr()).isZero();
    assertThat(cancel.stdout()).matches("(cancelled|cancelling: .*)\n");
    assertThat(status(handle).get("state").asText()).isEqualTo("CANCELLED");
  }

  @Test
  void brokenHandles_areOneClearLine() throws Exception {
    // a string that is no handle at all is a usage error
    Cli.Result garbage = Cli.run(dir, user(), "status", "not-a-handle");
    assertThat(garbage.exit()).isEqualTo(2);
    assertThat(garbage.stderr())
        .isEqualTo(
            "lake: not a lake query handle (expected the lkq1.… line that submit printed)\n");

    // a well-formed handle this lake never issued is an unknown query
    String real = submit("SELECT 42 AS answer");
    String forged = forge(real);
    Cli.Result unknown = Cli.run(dir, user(), "status", forged);
    assertThat(unknown.exit()).isEqualTo(1);
    assertThat(unknown.errLines()).hasSize(1);
    assertThat(unknown.stderr()).startsWith("lake: UNAUTHENTICATED");
  }

  @Test
  void expiredHandle_isOneLineNotFoundAndExit1() throws Exception {
    String handle = submit("SELECT 7 AS seven");
    assertThat(status(handle).get("state").asText()).isIn("RUNNING", "SUCCEEDED");

    lake.advance(Duration.ofHours(49));
    try {
      Cli.Result r =
          Cli.run(dir, user(), "fetch", handle, "--output", dir.resolve("x.csv").toString());
      assertThat(r.exit()).isEqualTo(1);
      assertThat(r.errLines()).hasSize(1);
      assertThat(r.stderr()).startsWith("lake: ").containsIgnoringCase("expired");
    } finally {
      lake.advance(Duration.ofHours(-49));
    }
    // the lake still answers
    try (LakeClient client = LakeClient.connect(LakeClientConfig.of(lake.url(), lake.token()))) {
      assertThat(client.submit("SELECT 8 AS eight").await(p -> {}).rows()).isEqualTo(1);
    }
  }

  /** The same handle with one byte of the sealed descriptor flipped. */
  private static String forge(String handle) throws Exception {
    String json =
        new String(
            java.util.Base64.getUrlDecoder().decode(handle.substring("lkq1.".length())),
            java.nio.charset.StandardCharsets.UTF_8);
    com.fasterxml.jackson.databind.node.ObjectNode node =
        (com.fasterxml.jackson.databind.node.ObjectNode) JSON.readTree(json);
    byte[] descriptor = java.util.Base64.getDecoder().decode(node.get("descriptor").asText());
    descriptor[descriptor.length / 2] ^= 1;
    node.put("descriptor", java.util.Base64.getEncoder().encodeToString(descriptor));
    return "lkq1."
        + java.util.Base64.getUrlEncoder()
            .withoutPadding()
            .encodeToString(node.toString().getBytes(java.nio.charset.StandardCharsets.UTF_8));
  }

  private static List<String> names(Path directory, String suffix) throws Exception {
    try (Stream<Path> files = Files.list(directory)) {
      return files.map(p -> p.getFileName().toString()).filter(n -> n.endsWith(suffix)).toList();
    }
  }
}
