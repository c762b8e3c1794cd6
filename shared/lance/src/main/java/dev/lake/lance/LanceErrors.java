package dev.lake.lance;

import dev.lake.core.ErrorCode;
import dev.lake.core.LakeException;
import dev.lake.core.TableRef;
import java.util.Locale;

/** Maps Lance failures to lake errors without exposing storage locations. */
final class LanceErrors {
  private LanceErrors() {}

  /** A version that cannot be opened is gone (removed by retention or deleted); fail closed. */
  static LakeException versionGone(TableRef ref, LanceSnapshot snapshot, RuntimeException e) {
    String m = String.valueOf(e.getMessage()).toLowerCase(Locale.ROOT);
    if (m.contains("not found")
        || m.contains("notfound")
        || m.contains("no such file")
        || m.contains("does not exist")
        || m.contains("version")) {
      return new LakeException(
          ErrorCode.SNAPSHOT_GONE,
          "version " + snapshot.version() + " of " + ref + " is no longer available",
          e);
    }
    return new LakeException(
        ErrorCode.EXTERNAL_UNAVAILABLE, "Cannot read " + ref + " " + snapshot.describe(), e);
  }
}
