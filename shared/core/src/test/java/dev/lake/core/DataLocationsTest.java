package dev.lake.core;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.lake.core.local.FileRegistry;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class DataLocationsTest {
  private static final TableRef T = TableRef.parse("lake.sales.orders");

  @Test
  void parse_normalizesS3Prefixes_andRefusesWhatIsNotAPrefix() {
    // GIVEN prefixes with an upper-case scheme, blanks and a duplicate THEN normalized, in order
    DataLocations l =
        DataLocations.parse(" S3://data/sales/ , s3://lake-b/,s3://data/sales/", false);
    assertThat(l.s3Prefixes()).containsExactly("s3://data/sales/", "s3://lake-b/");
    assertThat(l.localRoots()).isEmpty();
    // THEN what is not a normalized prefix is refused naming the flag and the entry
    assertThatThrownBy(() -> DataLocations.parse("s3://data/sales", false))
        .hasMessage(
            "--data-locations (LAKE_DATA_LOCATIONS) entry 's3://data/sales' must end with '/' (a"
                + " prefix, e.g. s3://data/sales/)");
    for (String bad :
        List.of("s3://data/a/../b/", "s3://data//x/", "s3://Data/x/", "s3://d/%2E/")) {
      assertThatThrownBy(() -> DataLocations.parse(bad, false))
          .hasMessage(DataLocations.FLAG + " entry '" + bad + "' is not an s3://bucket/prefix/");
    }
    assertThatThrownBy(() -> DataLocations.parse("/srv/data", false))
        .hasMessage(
            DataLocations.FLAG
                + " entry '/srv/data' is not an s3://bucket/prefix/ (local directories are"
                + " accepted on one host only)");
    assertThatThrownBy(() -> DataLocations.parse("gs://x/", true))
        .hasMessageEndingWith("is neither an s3://bucket/prefix/ nor an absolute local directory");
    assertThatThrownBy(() -> DataLocations.parse(" , ", false))
        .hasMessage(DataLocations.FLAG + " is empty: name at least one location");
  }

  @Test
  void allows_s3_onlyUnderAPrefix_withPlainSegments() {
    DataLocations l = DataLocations.parse("s3://data/sales/", false);
    assertThat(l.allows("s3://data/sales/orders.lance")).isTrue();
    assertThat(l.allows("s3a://data/sales/t/metadata/v1.json")).isTrue();
    for (String outside :
        List.of(
            "s3://data/sales", // the prefix without its slash is another key
            "s3://data/salesforce/x", // a sibling sharing the letters
            "s3://data/sales/../secret/x", // `..` segment
            "s3://data/sales/./x",
            "s3://data/sales//x",
            "s3://data/sales/%2e%2e/x", // encoded
            "s3://data/sales/x?versionId=1",
            "s3://other/sales/x", // another bucket
            "file:/data/sales/x",
            "/data/sales/x",
            "sales/x",
            "",
            "gs://data/sales/x")) {
      assertThat(l.allows(outside)).as(outside).isFalse();
    }
    assertThat(DataLocations.NONE.allows("s3://data/sales/x")).isFalse();
  }

  @Test
  void allows_local_onlyBelowARoot_withoutLinksOrSpecialFiles(@TempDir Path dir) throws Exception {
    // GIVEN a root with a dataset, a file outside, and link escapes inside
    Path root = Files.createDirectories(dir.resolve("root")).toRealPath();
    Path outside = Files.writeString(dir.resolve("outside.parquet"), "x");
    Files.createDirectories(root.resolve("t.lance/data"));
    Path file = Files.writeString(root.resolve("t.lance/data/0.lance"), "x");
    Files.createSymbolicLink(root.resolve("link"), dir);
    Files.createLink(root.resolve("hard.parquet"), outside);
    DataLocations l = DataLocations.parse(root.toString(), true);
    // THEN files and directories below the root are allowed, also as file: URIs and not yet
    // existing
    assertThat(l.allows(root.resolve("t.lance").toString())).isTrue();
    assertThat(l.allows(file.toString())).isTrue();
    assertThat(l.allows("file://" + file)).isTrue();
    assertThat(l.allows("file:" + file)).isTrue();
    assertThat(l.allows(root.resolve("new.lance").toString())).isTrue();
    // AND outside, `..`, a symlink component, a second hard link and a remote host are refused
    assertThat(l.allows(outside.toString())).isFalse();
    assertThat(l.allows(root + "/../outside.parquet")).isFalse();
    assertThat(l.allows(root.resolve("link/outside.parquet").toString())).isFalse();
    assertThat(l.allows(root.resolve("hard.parquet").toString())).isFalse();
    assertThat(l.allows("file://host" + file)).isFalse();
    assertThat(l.allows(file + "/more")).isFalse(); // a file in the middle of a path
    assertThat(l.allows(dir.toString())).isFalse();
  }

  @Test
  void checkRead_namesTheTable_neverTheLocation() {
    DataLocations l = DataLocations.parse("s3://data/sales/", false);
    assertThatThrownBy(() -> l.checkRead(T, "s3://secret-bucket/keys/x"))
        .isInstanceOfSatisfying(
            LakeException.class, e -> assertThat(e.code()).isEqualTo(ErrorCode.PERMISSION_DENIED))
        .hasMessage(
            "Table lake.sales.orders refers to data outside this deployment's data locations; lake"
                + " does not read it (an operator can allow the location with --data-locations"
                + " (LAKE_DATA_LOCATIONS))")
        .hasMessageNotContaining("secret-bucket");
  }

  @Test
  void confine_refusesARegistrationOutside_beforeTheStoreWrites(@TempDir Path dir) {
    // GIVEN a registry confined to one directory
    Path root = dir.resolve("data");
    FileRegistry store = new FileRegistry(dir.resolve("registry.json"));
    Registry registry = DataLocations.of(root).confine(store);
    // WHEN a table outside is registered THEN refused naming the location, nothing written
    assertThatThrownBy(() -> registry.register(T, "test", "/etc/passwd", Map.of()))
        .isInstanceOfSatisfying(
            LakeException.class, e -> assertThat(e.code()).isEqualTo(ErrorCode.INVALID_ARGUMENT))
        .hasMessageStartingWith(
            "Location /etc/passwd lies outside this deployment's data locations");
    assertThat(store.list()).isEmpty();
    // AND one inside registers
    registry.register(T, "test", root.resolve("orders").toString(), Map.of());
    assertThat(store.find(T)).isPresent();
  }

  @Test
  void plus_addsTheDataDirectory_andLocalDefaultIsIt(@TempDir Path dir) throws Exception {
    DataLocations l = DataLocations.parse("s3://data/sales/", false).plus(dir.resolve("d"));
    assertThat(l.s3Prefixes()).containsExactly("s3://data/sales/");
    assertThat(l.localRoots()).containsExactly(dir.resolve("d").toRealPath().toString());
    assertThat(l.hasLocalRoots()).isTrue();
    assertThat(DataLocations.parse("s3://a-b/", false).hasLocalRoots()).isFalse();
  }
}
