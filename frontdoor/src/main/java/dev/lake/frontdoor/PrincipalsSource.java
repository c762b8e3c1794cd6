package dev.lake.frontdoor;

import static java.util.Objects.requireNonNull;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;

/**
 * Where the principals JSON comes from (a port): a local file, or a secret store whose every
 * version is immutable (Secrets Manager, adapted in {@code lake-app}). {@link ReloadingPrincipals}
 * reads it again on an interval and loads a version it has not seen.
 */
public interface PrincipalsSource {
  /** Names the source in logs and errors, e.g. {@code principals file /x}; never its content. */
  String name();

  /**
   * The current content and its version.
   *
   * @throws IOException when the source cannot be read now (missing, unreachable, refused)
   */
  Version read() throws IOException;

  /**
   * One version of the principals JSON.
   *
   * @param id equal ids mean equal content (a file's SHA-256, a secret's version id)
   * @param json the principals JSON, UTF-8
   */
  record Version(String id, byte[] json) {
    public Version {
      requireNonNull(id, "id is null");
      requireNonNull(json, "json is null");
    }
  }

  /** A principals file; its version is the SHA-256 of its bytes. */
  static PrincipalsSource file(Path file) {
    requireNonNull(file, "file is null");
    return new PrincipalsSource() {
      @Override
      public String name() {
        return "principals file " + file;
      }

      @Override
      public Version read() throws IOException {
        byte[] json = Files.readAllBytes(file);
        try {
          return new Version(
              HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(json)), json);
        } catch (NoSuchAlgorithmException e) {
          throw new IllegalStateException("SHA-256 is missing from this JVM", e);
        }
      }
    };
  }
}
