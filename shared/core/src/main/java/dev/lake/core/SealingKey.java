package dev.lake.core;

import static java.util.Objects.requireNonNull;

import java.util.regex.Pattern;

/**
 * An AES-256 key and its id. The id travels in ticket headers; the key bytes never leave memory.
 */
public record SealingKey(String id, byte[] key) {
  private static final Pattern ID = Pattern.compile("[A-Za-z0-9_-]{1,64}");

  public SealingKey {
    requireNonNull(id, "id is null");
    requireNonNull(key, "key is null");
    if (!ID.matcher(id).matches()) {
      throw new IllegalArgumentException("key id must be 1-64 of [A-Za-z0-9_-]");
    }
    if (key.length != 32) {
      throw new IllegalArgumentException("key must be 32 bytes (AES-256), got " + key.length);
    }
    key = key.clone();
  }

  @Override
  public byte[] key() {
    return key.clone();
  }

  @Override
  public String toString() {
    return "SealingKey[id=" + id + "]";
  }
}
