package dev.lake.app;

import static java.util.Objects.requireNonNull;

import dev.lake.core.KeyService;
import java.nio.file.Path;

/** Where a process's ticket and envelope keys come from. Every replica and worker must agree. */
public sealed interface KeySource {
  /** A local key ring file that must exist ({@code serve --key-ring}). */
  record File(Path path) implements KeySource {
    public File {
      requireNonNull(path, "path is null");
    }
  }

  /** A local key ring file, created on first start (local mode). */
  record CreatedFile(Path path) implements KeySource {
    public CreatedFile {
      requireNonNull(path, "path is null");
    }
  }

  /**
   * The deployment's KMS-wrapped ring in the result bucket under {@code ringPrefix} (AWS mode;
   * default {@link LakeRuntime#KEY_RING_PREFIX}, every replica and worker must agree).
   */
  record Kms(String ringPrefix) implements KeySource {
    public Kms {
      requireNonNull(ringPrefix, "ringPrefix is null");
      if (!ringPrefix.matches("[A-Za-z0-9_.-]+(/[A-Za-z0-9_.-]+)*")) {
        throw new IllegalArgumentException(
            "the key ring prefix must be a relative object-key prefix: " + ringPrefix);
      }
    }

    /** The default location, {@code ticket-keys/}. */
    public Kms() {
      this(LakeRuntime.KEY_RING_PREFIX);
    }
  }

  /** Keys the caller already holds (tests, the bench); the runtime does not close them. */
  record Given(KeyService keys) implements KeySource {
    public Given {
      requireNonNull(keys, "keys is null");
    }
  }
}
