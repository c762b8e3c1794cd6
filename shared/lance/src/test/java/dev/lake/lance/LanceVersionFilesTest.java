package dev.lake.lance;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/** The names the retention check looks for: Lance's manifest files and local version folders. */
class LanceVersionFilesTest {
  @Test
  void manifestV2_isUnsignedMaxMinusVersion_zeroPaddedToTwentyDigits() {
    assertThat(LanceDatasets.manifestV2(1)).isEqualTo("18446744073709551614.manifest");
    assertThat(LanceDatasets.manifestV2(0)).isEqualTo("18446744073709551615.manifest");
    // a version so large that the name has fewer than 20 digits is padded with zeros
    assertThat(LanceDatasets.manifestV2(-1L - 42)).isEqualTo("00000000000000000042.manifest");
  }

  @Test
  void versionsDir_isLocalForPathsAndFileUris_andAbsentForOtherSchemes() {
    assertThat(LanceTableReader.versionsDir("/data/t.lance"))
        .contains(Path.of("/data/t.lance/_versions"));
    assertThat(LanceTableReader.versionsDir("file:///data/t.lance"))
        .contains(Path.of("/data/t.lance/_versions"));
    assertThat(LanceTableReader.versionsDir("s3://bucket/t.lance")).isEmpty();
    assertThat(LanceTableReader.versionsDir("s3+ssl://bucket/t.lance")).isEmpty();
  }
}
