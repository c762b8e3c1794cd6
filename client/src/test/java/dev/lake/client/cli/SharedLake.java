package dev.lake.client.cli;

import dev.lake.app.ClientTestLake;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;

/**
 * One lake ({@link ClientTestLake}, as {@code bin/lake local} runs it) shared by the test classes
 * of the shell and the output paths, started on first use and stopped when the test JVM exits: its
 * demo data takes seconds to generate, the tests need none of their own.
 */
final class SharedLake {
  private static ClientTestLake lake;

  private SharedLake() {}

  static synchronized ClientTestLake get() {
    if (lake == null) {
      try {
        Path dir = Files.createTempDirectory("lake-cli-test");
        lake = ClientTestLake.start(dir.resolve("lake"), 1_000_000);
        Runtime.getRuntime().addShutdownHook(new Thread(lake::close, "shared-lake-stop"));
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
    }
    return lake;
  }

  /** The environment of a user who ran {@code bin/lake local} on this lake's data directory. */
  static Map<String, String> localUser() {
    return Map.of("LAKE_URL", get().url(), "LAKE_DATA_DIR", get().dataDir().toString());
  }
}
