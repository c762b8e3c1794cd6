package dev.lake.frontdoor;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.lake.app.LakeCli;
import dev.lake.core.LakeException;
import dev.lake.core.Principal;
import dev.lake.core.testing.MutableClock;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Static tokens rotate without a restart: expiry, reload on change, and the hash command. */
class StaticTokenRotationTest {
  @TempDir Path dir;
  final MutableClock clock = new MutableClock(Instant.parse("2026-12-07T12:00:00Z"));

  @Test
  void expiredEntry_isRefused_namingItsExpiry_whileOthersStillAuthenticate() {
    // GIVEN an old token that expires at 13:00 and its successor without expiry
    Principals principals =
        new Principals(
            List.of(
                entry("old", "acme", Optional.of(Instant.parse("2026-12-07T13:00:00Z"))),
                entry("new", "acme", Optional.empty())),
            clock);
    assertThat(principals.resolvePrincipal("old").id()).isEqualTo("old");
    // WHEN the clock passes 13:00
    clock.advance(Duration.ofHours(1));
    // THEN the old token is refused with its expiry, the new one still works
    assertThatThrownBy(() -> principals.resolvePrincipal("old"))
        .isInstanceOf(LakeException.class)
        .hasMessage("Bearer token expired at 2026-12-07T13:00:00Z; ask for a new one");
    assertThat(principals.authenticate("old")).isEmpty();
    assertThat(principals.resolvePrincipal("new").id()).isEqualTo("new");
    assertThatThrownBy(() -> principals.resolvePrincipal("never-issued"))
        .hasMessage("Unknown bearer token");
  }

  @Test
  void expires_roundTripsThroughTheFile_andABadInstantNamesItsLine() throws Exception {
    Path file = dir.resolve("principals.json");
    PrincipalEntry e = entry("t", "acme", Optional.of(Instant.parse("2027-01-31T00:00:00Z")));
    Principals.write(file, List.of(e));
    assertThat(Principals.load(file).entries()).containsExactly(e);
    Files.writeString(file, Files.readString(file).replace("2027-01-31T00:00:00Z", "next tuesday"));
    assertThatThrownBy(() -> Principals.load(file))
        .hasMessageEndingWith(
            "line 7: expires must be an ISO-8601 instant such as 2027-01-31T00:00:00Z, not 'next"
                + " tuesday'");
  }

  @Test
  void changedFile_isReloaded_withoutRestart_andABadOneKeepsTheOldSet() throws Exception {
    // GIVEN a watched principals file admitting alice
    Path file = dir.resolve("principals.json");
    Principals.write(file, List.of(entry("alice-token", "acme", Optional.empty())));
    List<String> logged = new ArrayList<>();
    ReloadingPrincipals watched = new ReloadingPrincipals(file, Duration.ZERO, clock, logged::add);
    assertThat(watched.resolvePrincipal("alice-token").id()).isEqualTo("alice-token");
    // WHEN the operator adds bob's token (rotation: both valid for a while)
    Principals.write(
        file,
        List.of(
            entry("alice-token", "acme", Optional.empty()),
            entry("bob-token", "acme", Optional.empty())));
    // THEN the next call sees it, no restart
    assertThat(watched.resolvePrincipal("bob-token").id()).isEqualTo("bob-token");
    // WHEN a broken file replaces it
    Files.writeString(file, "{\"principals\": [ {\"tokenSha256\": \"not-a-hash\"");
    // THEN the previous set stays in force and one line says why, however many calls follow
    for (int i = 0; i < 3; i++) {
      assertThat(watched.resolvePrincipal("bob-token").id()).isEqualTo("bob-token");
    }
    assertThat(logged).hasSize(1);
    assertThat(logged.get(0))
        .startsWith(
            "principals file "
                + file
                + " changed but was not loaded, keeping the previous 2"
                + " entries: ");
    // AND a removed file keeps it too, then a fixed file without alice revokes her
    Files.delete(file);
    assertThat(watched.resolvePrincipal("alice-token").id()).isEqualTo("alice-token");
    Principals.write(file, List.of(entry("bob-token", "acme", Optional.empty())));
    assertThatThrownBy(() -> watched.resolvePrincipal("alice-token"))
        .hasMessage("Unknown bearer token");
    assertThat(watched.resolvePrincipal("bob-token").id()).isEqualTo("bob-token");
  }

  @Test
  void reload_waitsForTheInterval() throws Exception {
    Path file = dir.resolve("principals.json");
    Principals.write(file, List.of(entry("a", "acme", Optional.empty())));
    ReloadingPrincipals watched =
        new ReloadingPrincipals(file, Duration.ofHours(1), clock, s -> {});
    Principals.write(file, List.of(entry("b", "acme", Optional.empty())));
    // within the hour the loaded set is used as it is
    assertThat(watched.resolvePrincipal("a").id()).isEqualTo("a");
    assertThatThrownBy(() -> watched.resolvePrincipal("b")).hasMessage("Unknown bearer token");
  }

  @Test
  void principalsHash_printsATokenAndTheEntryThatAdmitsIt() throws Exception {
    // WHEN an operator issues a token valid for 30 days
    StringWriter out = new StringWriter();
    int code =
        LakeCli.commandLine(Map.of())
            .setOut(new PrintWriter(out))
            .execute(
                "principals",
                "hash",
                "--tenant",
                "acme",
                "--id",
                "reporting",
                "--grant",
                "lake.tpch",
                "--grant",
                "iceberg.\"a.b\".t",
                "--expires",
                "2027-01-31T00:00:00Z");
    // THEN the printed entry, pasted into a principals file, admits the printed token
    assertThat(code).isZero();
    String[] lines = out.toString().split("\n");
    assertThat(lines[0]).startsWith("token (give it to reporting; it is stored nowhere): lake_");
    String token = lines[0].substring(lines[0].lastIndexOf(' ') + 1);
    assertThat(lines[2]).doesNotContain(token);
    Path file = dir.resolve("principals.json");
    Files.writeString(file, "{\"principals\":[" + lines[2] + "]}");
    Principals loaded = Principals.load(file, clock);
    assertThat(loaded.resolvePrincipal(token))
        .isEqualTo(Principal.of("acme", "reporting", Set.of("lake.tpch", "iceberg.\"a.b\".t")));
    assertThat(loaded.entries().get(0).expires()).contains(Instant.parse("2027-01-31T00:00:00Z"));
  }

  private static PrincipalEntry entry(String token, String tenant, Optional<Instant> expires) {
    return new PrincipalEntry(Principals.sha256Hex(token), tenant, token, List.of(), expires);
  }
}
