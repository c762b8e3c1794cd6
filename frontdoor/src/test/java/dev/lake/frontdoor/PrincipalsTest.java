package dev.lake.frontdoor;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.lake.core.Principal;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class PrincipalsTest {
  @TempDir Path dir;

  @Test
  void authenticate_returnsPrincipal_forKnownTokenOnly() throws Exception {
    // GIVEN a principals file written with the hash of one token
    Path file = dir.resolve("principals.json");
    Principals.write(
        file,
        List.of(
            new PrincipalEntry(
                Principals.sha256Hex("s3cret"), "acme", "alice", List.of("lake.tpch"))));
    // WHEN
    Principals principals = Principals.load(file);
    // THEN
    assertThat(principals.authenticate("s3cret"))
        .contains(Principal.of("acme", "alice", Set.of("lake.tpch")));
    assertThat(principals.authenticate("s3cret ")).isEmpty();
    assertThat(principals.authenticate("")).isEmpty();
    assertThat(principals.authenticate(null)).isEmpty();
    assertThat(Files.readString(file)).doesNotContain("s3cret");
  }

  @Test
  void sha256Hex_isTheStandardDigest() {
    assertThat(Principals.sha256Hex("abc"))
        .isEqualTo("ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
  }

  @Test
  void entry_rejectsRawTokenInPlaceOfHash() {
    assertThatThrownBy(() -> new PrincipalEntry("my-token", "acme", "alice", List.of()))
        .hasMessage("tokenSha256 of principal alice must be 64 hex digits (SHA-256 of the token)");
  }

  @Test
  void constructor_rejectsDuplicateTokenHashes() {
    String hash = Principals.sha256Hex("t");
    assertThatThrownBy(
            () ->
                new Principals(
                    List.of(
                        new PrincipalEntry(hash, "a", "x", List.of()),
                        new PrincipalEntry(hash, "b", "y", List.of()))))
        .hasMessage("two principals share one token hash");
  }

  @Test
  void load_rejectsInvalidGrant_namingItsLine() throws Exception {
    // GIVEN a principals file whose second entry holds an unquoted nested namespace
    Path file = dir.resolve("principals.json");
    String hash = Principals.sha256Hex("t1");
    String other = Principals.sha256Hex("t2");
    Files.writeString(
        file,
        String.join(
            "\n",
            "{\"principals\": [",
            "  {\"tokenSha256\": \"" + hash + "\", \"tenant\": \"a\", \"id\": \"x\",",
            "   \"grants\": [\"lake.tpch\"]},",
            "  {\"tokenSha256\": \"" + other + "\", \"tenant\": \"a\", \"id\": \"y\",",
            "   \"grants\": [\"lake.tpch\",",
            "              \"iceberg.a.b.c\"]}",
            "]}"));
    // THEN loading fails, naming the file, the line and the grant
    assertThatThrownBy(() -> Principals.load(file))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageStartingWith(
            "principals file " + file + " line 6: Invalid grant 'iceberg.a.b.c'");
  }

  @Test
  void entry_keepsGrantsInCanonicalForm() {
    PrincipalEntry e =
        new PrincipalEntry(
            Principals.sha256Hex("t"), "a", "x", List.of("LAKE.TPCH", "iceberg.\"A.B\".T"));
    assertThat(e.grants()).containsExactly("lake.tpch", "iceberg.\"a.b\".t");
  }

  @Test
  void load_rejectsFileWithoutPrincipalsArray() throws Exception {
    Path file = dir.resolve("bad.json");
    Files.writeString(file, "{\"users\":[]}");
    assertThatThrownBy(() -> Principals.load(file))
        .hasMessageContaining("must hold {\"principals\":[...]}");
  }
}
