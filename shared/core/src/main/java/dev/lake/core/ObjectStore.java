package dev.lake.core;

import java.io.InputStream;
import java.io.OutputStream;
import java.util.List;
import java.util.Optional;

/**
 * Object storage under one root (a bucket and prefix, or a directory). Keys are relative, use
 * {@code /} separators and never contain {@code ..}.
 */
public interface ObjectStore {
  /**
   * Opens a streaming upload. Bytes become visible at {@code key} only when {@link
   * Upload#complete()} returns; {@link Upload#close()} without completing aborts and leaves nothing
   * behind.
   */
  Upload create(String key);

  /** Writes a small object atomically; fails with {@code false} if it exists and !overwrite. */
  boolean put(String key, byte[] bytes, boolean overwrite);

  /** The whole object, or empty if it does not exist. */
  Optional<InputStream> find(String key);

  /**
   * The object as a file on this machine, for stores that keep objects as files: readers that can
   * map a file serve it without copying. Objects are never rewritten in place (uploads move into
   * place), so the file is as immutable as the object. Empty for remote stores (the default) and
   * for objects that do not exist.
   */
  default Optional<java.nio.file.Path> findLocalFile(String key) {
    return Optional.empty();
  }

  /** {@code length} bytes starting at {@code offset}. */
  InputStream getRange(String key, long offset, long length);

  /** Object size, or empty if it does not exist. */
  Optional<Long> size(String key);

  /** Keys under {@code prefix}, in lexicographic order. */
  List<String> list(String prefix);

  /** Deletes {@code key} if present. */
  void delete(String key);

  /** A streaming upload; see {@link #create(String)}. */
  interface Upload extends AutoCloseable {
    OutputStream stream();

    /** Publishes the object. */
    void complete();

    /** Aborts unless completed. */
    @Override
    void close();
  }

  /** Validates a key: relative, no empty or dot segments. */
  static String checkKey(String key) {
    java.util.Objects.requireNonNull(key, "key is null");
    if (key.isEmpty() || key.startsWith("/") || key.length() > 1024) {
      throw new IllegalArgumentException("invalid object key: " + key);
    }
    for (String part : key.split("/", -1)) {
      if (part.isEmpty() || part.equals(".") || part.equals("..")) {
        throw new IllegalArgumentException("invalid object key: " + key);
      }
    }
    return key;
  }
}
