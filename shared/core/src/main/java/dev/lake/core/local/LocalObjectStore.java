package dev.lake.core.local;

import static java.util.Objects.requireNonNull;

import dev.lake.core.ErrorCode;
import dev.lake.core.LakeException;
import dev.lake.core.ObjectStore;
import java.io.BufferedOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.channels.Channels;
import java.nio.channels.SeekableByteChannel;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.List;
import java.util.Optional;
import java.util.stream.Stream;

/**
 * An {@link ObjectStore} in a local directory. Uploads go to a hidden temporary file and appear at
 * their key by an atomic rename, so readers never see a partial object.
 */
public final class LocalObjectStore implements ObjectStore {
  private static final String TMP_DIR = ".uploads";

  private final Path root;

  public LocalObjectStore(Path root) {
    this.root = requireNonNull(root, "root is null").toAbsolutePath().normalize();
    try {
      Files.createDirectories(this.root.resolve(TMP_DIR));
    } catch (IOException e) {
      throw new UncheckedIOException("cannot create object store root " + root, e);
    }
  }

  public Path root() {
    return root;
  }

  @Override
  public Upload create(String key) {
    Path target = path(key);
    try {
      Path tmp = Files.createTempFile(root.resolve(TMP_DIR), "upload", ".part");
      OutputStream out = new BufferedOutputStream(Files.newOutputStream(tmp), 1 << 16);
      return new Upload() {
        private boolean done;

        @Override
        public OutputStream stream() {
          return out;
        }

        @Override
        public void complete() {
          try {
            out.close();
            Files.createDirectories(target.getParent());
            Files.move(
                tmp, target, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
            done = true;
          } catch (IOException e) {
            throw failed("write", e);
          }
        }

        @Override
        public void close() {
          if (!done) {
            try {
              out.close();
            } catch (IOException ignored) {
              // aborting: the temporary file is deleted next
            }
            try {
              Files.deleteIfExists(tmp);
            } catch (IOException e) {
              throw failed("delete", e);
            }
          }
        }
      };
    } catch (IOException e) {
      throw failed("write", e);
    }
  }

  @Override
  public boolean put(String key, byte[] bytes, boolean overwrite) {
    Path target = path(key);
    try {
      Files.createDirectories(target.getParent());
      Path tmp = Files.createTempFile(root.resolve(TMP_DIR), "put", ".part");
      Files.write(tmp, bytes);
      if (overwrite) {
        Files.move(
            tmp, target, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
        return true;
      }
      try {
        Files.createLink(target, tmp);
        return true;
      } catch (FileAlreadyExistsException e) {
        return false;
      } finally {
        Files.deleteIfExists(tmp);
      }
    } catch (IOException e) {
      throw failed("write", e);
    }
  }

  @Override
  public Optional<InputStream> find(String key) {
    try {
      return Optional.of(Files.newInputStream(path(key)));
    } catch (NoSuchFileException e) {
      return Optional.empty();
    } catch (IOException e) {
      throw failed("read", e);
    }
  }

  @Override
  public Optional<Path> findLocalFile(String key) {
    Path p = path(key);
    return Files.isRegularFile(p) ? Optional.of(p) : Optional.empty();
  }

  @Override
  public InputStream getRange(String key, long offset, long length) {
    if (offset < 0 || length < 0) {
      throw new IllegalArgumentException("negative range");
    }
    try {
      SeekableByteChannel channel = Files.newByteChannel(path(key), StandardOpenOption.READ);
      channel.position(offset);
      InputStream in = Channels.newInputStream(channel);
      return new java.io.FilterInputStream(in) {
        private long left = length;

        @Override
        public int read() throws IOException {
          if (left <= 0) {
            return -1;
          }
          int b = super.read();
          if (b >= 0) {
            left--;
          }
          return b;
        }

        @Override
        public int read(byte[] b, int off, int len) throws IOException {
          if (left <= 0) {
            return -1;
          }
          int n = super.read(b, off, (int) Math.min(len, left));
          if (n > 0) {
            left -= n;
          }
          return n;
        }
      };
    } catch (IOException e) {
      throw failed("read", e);
    }
  }

  @Override
  public Optional<Long> size(String key) {
    Path p = path(key);
    try {
      return Files.isRegularFile(p) ? Optional.of(Files.size(p)) : Optional.empty();
    } catch (IOException e) {
      throw failed("stat", e);
    }
  }

  @Override
  public List<String> list(String prefix) {
    requireNonNull(prefix, "prefix is null");
    try (Stream<Path> files = Files.walk(root)) {
      return files
          .filter(Files::isRegularFile)
          .map(p -> root.relativize(p).toString().replace('\\', '/'))
          .filter(k -> !k.startsWith(TMP_DIR + "/") && k.startsWith(prefix))
          .sorted()
          .toList();
    } catch (IOException | UncheckedIOException e) {
      // Files.walk reports a file that vanished while walking (a concurrent delete) unchecked
      throw failed("list", e);
    }
  }

  @Override
  public void delete(String key) {
    try {
      Files.deleteIfExists(path(key));
    } catch (IOException e) {
      throw failed("delete", e);
    }
  }

  /** A storage failure, as {@code S3ObjectStore} reports one: the cause stays in the server log. */
  private static LakeException failed(String what, Exception e) {
    return new LakeException(
        ErrorCode.EXTERNAL_UNAVAILABLE, "Object store " + what + " failed; retry later", e);
  }

  private Path path(String key) {
    Path p = root.resolve(ObjectStore.checkKey(key)).normalize();
    if (!p.startsWith(root) || p.startsWith(root.resolve(TMP_DIR))) {
      throw new IllegalArgumentException("invalid object key: " + key);
    }
    return p;
  }
}
