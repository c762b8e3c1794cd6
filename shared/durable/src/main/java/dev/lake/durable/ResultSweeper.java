package dev.lake.durable;

import static java.util.Objects.requireNonNull;

import dev.lake.core.ObjectStore;
import dev.lake.core.job.ResultConfig;
import dev.lake.core.job.ResultManifest;
import java.io.IOException;
import java.io.InputStream;
import java.time.Clock;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;

/**
 * Local-mode expiry: deletes every result directory whose manifest expired. In AWS, S3 lifecycle
 * rules on the result prefix do the same (and reap incomplete multipart uploads). Directories
 * without a manifest belong to running or failed attempts; failed attempts delete their own parts.
 */
public final class ResultSweeper {
  private final ObjectStore store;
  private final String resultPrefix;
  private final Clock clock;

  public ResultSweeper(ObjectStore store, String resultPrefix, Clock clock) {
    this.store = requireNonNull(store, "store is null");
    this.resultPrefix = requireNonNull(resultPrefix, "resultPrefix is null");
    this.clock = requireNonNull(clock, "clock is null");
  }

  /** Returns how many results were deleted. */
  public int sweep() {
    String root = resultPrefix.isEmpty() ? "" : resultPrefix + "/";
    Set<String> manifests = new TreeSet<>();
    for (String key : store.list(root)) {
      if (key.endsWith("/" + ResultManifest.FILE_NAME)) {
        manifests.add(key);
      }
    }
    int deleted = 0;
    for (String key : manifests) {
      Optional<InputStream> in = store.find(key);
      if (in.isEmpty()) {
        continue;
      }
      ResultManifest manifest;
      try (InputStream stream = in.get()) {
        manifest = ResultManifest.fromJson(stream.readAllBytes());
      } catch (IOException | RuntimeException e) {
        continue;
      }
      if (!manifest.expiresAt().isAfter(clock.instant())) {
        String dir = key.substring(0, key.length() - ResultManifest.FILE_NAME.length() - 1);
        new ResultWriter(store, ResultConfig.defaults()).discardAll(dir);
        deleted++;
      }
    }
    return deleted;
  }
}
