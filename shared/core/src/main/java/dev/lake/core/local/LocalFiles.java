package dev.lake.core.local;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.PosixFilePermissions;

/**
 * The file-safety helpers of lake's local files, in one place: a secret (key ring, principals, demo
 * token) is written to an owner-only temporary file beside its target and moved over it atomically,
 * so a reader sees the old or the new file and never a partial or world-readable one; a file lock
 * serializes the read-modify-write of a shared file across processes.
 */
public final class LocalFiles {
  private LocalFiles() {}

  /** Something that reads or writes files. */
  @FunctionalInterface
  public interface IoAction<T> {
    T run() throws IOException;
  }

  /** Writes a file's content. */
  @FunctionalInterface
  public interface IoWriter {
    void write(Path file) throws IOException;
  }

  /**
   * Replaces {@code file} with what {@code writer} writes, atomically and readable by its owner
   * only (on a non-POSIX file system the directory's permissions apply). Creates the directory.
   */
  public static void writeSecret(Path file, IoWriter writer) throws IOException {
    Path dir = file.toAbsolutePath().getParent();
    Files.createDirectories(dir);
    Path tmp = Files.createTempFile(dir, "." + file.getFileName(), ".tmp");
    try {
      try {
        Files.setPosixFilePermissions(tmp, PosixFilePermissions.fromString("rw-------"));
      } catch (UnsupportedOperationException ignored) {
        // non-POSIX file system: rely on the directory's permissions
      }
      writer.write(tmp);
      Files.move(tmp, file, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
    } finally {
      Files.deleteIfExists(tmp);
    }
  }

  /**
   * Runs {@code action} holding an exclusive lock on {@code lockFile} (created if missing). The
   * lock serializes processes; threads of one process must take turns before calling this, or the
   * second lock attempt fails with {@code OverlappingFileLockException}.
   */
  public static <T> T locked(Path lockFile, IoAction<T> action) throws IOException {
    try (FileChannel channel =
            FileChannel.open(lockFile, StandardOpenOption.CREATE, StandardOpenOption.WRITE);
        FileLock ignored = channel.lock()) {
      return action.run();
    }
  }
}
